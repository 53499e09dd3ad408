import Testing
import SleepTimerCore

@Suite struct IdentifiersTests {
    @Test func acceptsCanonicalAndUpperCaseUUIDsAsTheSameId() {
        let lower = TimerID("3f2504e0-4f89-41d3-9a0c-0305e82c3301")
        let upper = TimerID("3F2504E0-4F89-41D3-9A0C-0305E82C3301")
        #expect(lower != nil)
        #expect(lower == upper)
        #expect(upper?.string == "3f2504e0-4f89-41d3-9a0c-0305e82c3301")
    }

    @Test(arguments: [
        "", "3f2504e0-4f89-41d3-9a0c-0305e82c330", "3f2504e0-4f89-41d3-9a0c-0305e82c33011",
        "3f2504e04f8941d39a0c0305e82c3301", "{3f2504e0-4f89-41d3-9a0c-0305e82c3301}",
        "3f2504e0-4f89-41d3-9a0c-0305e82c330g", "3f2504e0_4f89-41d3-9a0c-0305e82c3301",
        " 3f2504e0-4f89-41d3-9a0c-0305e82c330", "-f2504e0-4f89-41d3-9a0c-0305e82c3301",
        "3f2504e0-4f89-41d3-9a0c-0305e82c33\u{0}1", "3f2504e0-4f89-41d3-9a0c-0305e82c33é",
    ])
    func refusesAnythingButEightFourFourFourTwelveHexDigits(_ text: String) {
        #expect(TimerID(text) == nil)
    }

    @Test func anIdIsNotBeforeItself() throws {
        let id = try #require(TimerID("3f2504e0-4f89-41d3-9a0c-0305e82c3301"))
        let later = try #require(TimerID("3f2504e0-4f89-41d3-9a0c-0305e82c3302"))
        #expect(!(id < id))
        #expect(!(id.uuid < id.uuid))
        #expect(id < later)
        #expect(!(later < id))
    }
}
