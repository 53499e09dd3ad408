import DFLTestSupport
import Testing
import SleepTimerCore

@Suite struct TimerOrderRuleTests {
    let now = Fixtures.now

    @Test func theEarliestStartedComesFirstWhateverItsID() {
        let earlier = now - .seconds(120)
        #expect(TimerOrderRule.precedes(startedAt: earlier, id: Fixtures.timerID(9), before: now, Fixtures.timerID(1)))
        #expect(!TimerOrderRule.precedes(startedAt: now, id: Fixtures.timerID(1), before: earlier, Fixtures.timerID(9)))
    }

    @Test func timersStartedTogetherGoByID() {
        #expect(TimerOrderRule.precedes(Fixtures.timer(1), Fixtures.timer(2)))
        #expect(!TimerOrderRule.precedes(Fixtures.timer(2), Fixtures.timer(1)))
        #expect(!TimerOrderRule.precedes(Fixtures.timer(1), Fixtures.timer(1)))
    }

    @Test func storedTimersGoByTheirTimers() {
        let stored = [3, 1, 2].map { StoredTimer(timer: Fixtures.timer($0), completionState: nil) }
        #expect(stored.sorted(by: TimerOrderRule.precedes).map(\.timer.id) == [1, 2, 3].map(Fixtures.timerID))
    }
}
