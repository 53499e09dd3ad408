import DFLTestSupport
import DesktopAppCore
import SleepTimerCore
import Testing

/// A sleep saved from the desktop is announced once, with its baby's name,
/// while the window is shown; nothing else is.
@Suite struct SaveAnnouncementTests {
    let maya = SaveAnnouncement.TimerName(timerID: "t-maya", babyName: "Maya")
    let leo = SaveAnnouncement.TimerName(timerID: "t-leo", babyName: "Leo")

    func listing(_ timers: SaveAnnouncement.TimerName...) -> SaveAnnouncement {
        var announcement = SaveAnnouncement()
        #expect(announcement.handle(.timers(timers)) == [])
        return announcement
    }

    func saved(_ timerID: String, outcome: String = "created", activityID: String = "a-1", shown: Bool = true)
        -> SaveAnnouncement.Event
    {
        .completionFinished(timerID: timerID, outcome: outcome, activityID: activityID, windowShown: shown)
    }

    @Test func aSleepSavedWhileTheWindowIsShownIsAnnouncedWithItsBabysName() {
        var announcement = listing(maya, leo)
        #expect(announcement.handle(saved("t-maya")) == [.announce("Maya's sleep saved")])
        #expect(announcement.handle(saved("t-leo", activityID: "a-2")) == [.announce("Leo's sleep saved")])
    }

    @Test func theSameCompletionIsAnnouncedOnce() {
        var announcement = listing(maya)
        #expect(announcement.handle(saved("t-maya")) == [.announce("Maya's sleep saved")])
        #expect(announcement.handle(saved("t-maya")) == [])
        #expect(announcement.handle(saved("t-maya", activityID: "a-other")) == [])
    }

    @Test func theNameOutlivesTheListThatForgetsTheTimer() {
        // CompletionFinished comes before TimerRemoved; the List after it no
        // longer has the timer, and a repeat of the signal stays silent.
        var announcement = listing(maya)
        #expect(announcement.handle(saved("t-maya")) == [.announce("Maya's sleep saved")])
        #expect(announcement.handle(.timers([])) == [])
        #expect(announcement.handle(saved("t-maya")) == [])
    }

    @Test func nothingIsSaidWhileTheWindowIsHiddenNorLaterForIt() {
        var announcement = listing(maya)
        #expect(announcement.handle(saved("t-maya", shown: false)) == [])
        #expect(announcement.handle(saved("t-maya", shown: true)) == [])
    }

    @Test func onlyANewActivityIsNewsOfASave() {
        var announcement = listing(maya)
        #expect(announcement.handle(saved("t-maya", outcome: "already-completed", activityID: "")) == [])
        #expect(announcement.handle(saved("t-maya", outcome: "failed", activityID: "")) == [])
        #expect(announcement.handle(saved("t-maya", activityID: "")) == [])
        // A failure is not the completion's end: a later save is still said.
        #expect(announcement.handle(saved("t-maya")) == [.announce("Maya's sleep saved")])
    }

    @Test func anotherOutcomeWithAnActivityIsNoNewsOfASave() {
        var announcement = listing(maya)
        #expect(announcement.handle(saved("t-maya", outcome: "already-completed")) == [])
        #expect(announcement.handled.isEmpty)
        #expect(announcement.handle(saved("t-maya")) == [.announce("Maya's sleep saved")])
    }

    @Test func aCompletionWithoutATimerIdIsNotRemembered() {
        var announcement = listing(maya)
        #expect(announcement.handle(saved("")) == [])
        #expect(announcement.handled.isEmpty)
    }

    @Test func aTimerNeverListedOrWithoutANameIsNotAnnounced() {
        var announcement = listing(SaveAnnouncement.TimerName(timerID: "t-nameless", babyName: ""))
        #expect(announcement.handle(saved("t-unknown")) == [])
        #expect(announcement.handle(saved("t-nameless")) == [])
        #expect(announcement.handle(saved("")) == [])
    }

    @Test func aCompletionThatFinishesAfterItsTimerLeftTheListIsAnnounced() {
        // A refresh from another device reconciled the timer away while its
        // completion was on its way; the completion finishes afterwards.
        var announcement = listing(maya, leo)
        #expect(announcement.handle(.timers([leo])) == [])
        #expect(announcement.handle(.timers([])) == [])
        #expect(announcement.handle(saved("t-maya")) == [.announce("Maya's sleep saved")])
    }

    @Test func aListedNameIsTheLatest() {
        var announcement = listing(maya)
        #expect(announcement.handle(.timers([SaveAnnouncement.TimerName(timerID: "t-maya", babyName: "Maja")])) == [])
        #expect(announcement.handle(saved("t-maya")) == [.announce("Maja's sleep saved")])
    }

    @Test func theNamesOfTimersNoLongerListedAreBoundedOldestFirstAndTheListedOnesKept() {
        var announcement = listing(maya)
        let others = (0..<(SaveAnnouncement.rememberedNames + 5)).map {
            SaveAnnouncement.TimerName(timerID: "t-\($0)", babyName: "Baby \($0)")
        }
        // Maya stays listed throughout; the others come and go one by one.
        for other in others { _ = announcement.handle(.timers([maya, other])) }
        _ = announcement.handle(.timers([maya]))
        #expect(announcement.names.count == SaveAnnouncement.rememberedNames + 1)
        #expect(announcement.names["t-maya"] == "Maya")
        #expect(announcement.names["t-4"] == nil)
        #expect(announcement.names["t-5"] == "Baby 5")
        #expect(announcement.handle(saved("t-0")) == [])
        #expect(announcement.handle(saved("t-maya")) == [.announce("Maya's sleep saved")])
    }

    @Test func theHandledCompletionsAreBounded() {
        var announcement = SaveAnnouncement()
        for index in 0..<(SaveAnnouncement.rememberedCompletions + 10) {
            _ = announcement.handle(saved("t-\(index)", shown: false))
        }
        #expect(announcement.handled.count == SaveAnnouncement.rememberedCompletions)
        #expect(announcement.handled.first == "t-10")
    }

    @Test func theWordsAreTheReadersAndTheNameIsFilledAfterTheTranslation() {
        let german = DictionaryTranslator(messages: ["{name}'s sleep saved": "Schlaf von {name} gespeichert"], plurals: [:])
        let text = Localization.$scoped.withValue(german) { SaveAnnouncement.text(babyName: "{name} Maya") }
        #expect(text == "Schlaf von {name} Maya gespeichert")
    }
}

/// An announcement is bounded whatever its words.
@Suite struct SaveAnnouncementLengthTests {
    @Test func theLongestNameTheAgentAcceptsIsSaidWhole() {
        let name = String(repeating: "M", count: BabyName.maximumCharacters)
        #expect(SaveAnnouncement.text(babyName: name) == name + "'s sleep saved")
    }

    @Test func aTextOfExactlyTheBoundIsSaidWhole() {
        let name = String(repeating: "M", count: SaveAnnouncement.maximumCharacters - "'s sleep saved".count)
        #expect(SaveAnnouncement.text(babyName: name) == name + "'s sleep saved")
        #expect(SaveAnnouncement.text(babyName: name).count == SaveAnnouncement.maximumCharacters)
    }

    @Test func aLongerTextIsCutToTheBound() {
        let text = SaveAnnouncement.text(babyName: String(repeating: "M", count: 100_000))
        #expect(text.count == SaveAnnouncement.maximumCharacters)
        #expect(text.hasSuffix("…"))
    }
}
