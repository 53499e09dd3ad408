import DFLTestSupport
import DesktopAppCore
import SleepTimerCore
import Testing

/// A timer of List is believed only under the agent's own Mirror rules.
@Suite struct AgentListEntryTests {
    let id = Fixtures.timerID

    @Test func aTimerTheAgentWouldMirrorIsTaken() {
        let entry = AgentListEntry(timerID: id, babyName: "Maya", state: "running")
        #expect(entry?.timerID == id)
        #expect(entry?.timer == ListedTimer(babyName: "Maya", state: "running"))
    }

    @Test func aNameTheMirrorRefusesIsNotTaken() {
        let controls = String(repeating: "M\u{1}\u{1B}[2J\n", count: 200_000)
        for name in [controls, String(repeating: "a", count: 1 << 20), "", "   ", "Maya\nLeo", "\u{202E}ayaM",
                     String(repeating: "x", count: BabyName.maximumCharacters + 1)] {
            #expect(AgentListEntry(timerID: id, babyName: name, state: "running") == nil)
        }
    }

    @Test func anIdThatIsNoTimerIdIsNotTaken() {
        #expect(AgentListEntry(timerID: "t-maya", babyName: "Maya", state: "running") == nil)
        #expect(AgentListEntry(timerID: "", babyName: "Maya", state: "running") == nil)
    }

    @Test func aListKeepsWhatPassesInItsOrder() {
        let other = Fixtures.babyID
        let accepted = AgentListEntry.accepted([
            (timerID: id, babyName: "Maya", state: "running"),
            (timerID: other, babyName: "Bad\u{7}", state: "running"),
            (timerID: other, babyName: "Leo", state: "saving"),
        ])
        #expect(accepted.map(\.timer.babyName) == ["Maya", "Leo"])
    }

    @Test func aHiddenAppListedOnlyRefusedTimersGoesOnItsWay() {
        var machine = BackgroundMachine()
        #expect(machine.startedHidden() == [.startGrace(BackgroundMachine.Settings().grace)])
        let accepted = AgentListEntry.accepted([(timerID: id, babyName: String(repeating: "\u{1}", count: 4096), state: "running")])
        #expect(machine.timersListed(accepted.map(\.timer)) == [])
        #expect(machine.graceElapsed() == [.quit(sayWhatStops: false)])
    }
}
