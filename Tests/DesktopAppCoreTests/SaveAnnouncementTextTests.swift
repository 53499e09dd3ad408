import DesktopAppCore
import SleepTimerCore
import Testing

/// An announcement is bounded whatever its words.
@Suite struct SaveAnnouncementTextTests {
    @Test func theLongestNameTheAgentAcceptsIsSaidWhole() {
        let name = String(repeating: "M", count: BabyName.maximumCharacters)
        #expect(SaveAnnouncementText.sleepSaved(babyName: name) == name + "'s sleep saved")
    }

    @Test func aTextOfExactlyTheBoundIsSaidWhole() {
        let name = String(repeating: "M", count: SaveAnnouncementText.maximumCharacters - "'s sleep saved".count)
        #expect(SaveAnnouncementText.sleepSaved(babyName: name) == name + "'s sleep saved")
        #expect(SaveAnnouncementText.sleepSaved(babyName: name).count == SaveAnnouncementText.maximumCharacters)
    }

    @Test func aLongerTextIsCutToTheBound() {
        let text = SaveAnnouncementText.sleepSaved(babyName: String(repeating: "M", count: 100_000))
        #expect(text.count == SaveAnnouncementText.maximumCharacters)
        #expect(text.hasSuffix("…"))
    }
}
