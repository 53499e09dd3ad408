import AgentWorkflows
import SleepTimerCore
import Testing

@Suite struct RunningSleepRuleTests {
    typealias F = WorkflowFixtures
    let now = F.now
    let expired = F.now.adding(milliseconds: -1)

    // MARK: Complete

    @Test func completeCompletesTheOneRunningSleep() {
        #expect(RunningSleepRule.complete(among: [F.timer(1)], now: now) == .complete(F.id(1)))
    }

    @Test func completeWithNoTimerTellsNoneIsRunning() {
        #expect(RunningSleepRule.complete(among: [], now: now) == .tellNoneRunning)
    }

    /// A keystroke cannot say which: nothing is completed.
    @Test func completeWithTwoRunningOpensTheAppHome() {
        #expect(RunningSleepRule.complete(among: [F.timer(1), F.timer(2)], now: now) == .openAppHome)
    }

    /// One whose token ran out cannot be completed here; the other one is.
    @Test func completeCountsOnlyTimersWithAValidToken() {
        let timers = [F.timer(1, expiresAt: expired), F.timer(2)]
        #expect(RunningSleepRule.complete(among: timers, now: now) == .complete(F.id(2)))
        #expect(RunningSleepRule.complete(among: [F.timer(1, token: false)], now: now) == .tellNoneRunning)
    }

    /// A token valid until exactly now is no longer valid.
    @Test func completeCountsATokenExpiringNowAsExpired() {
        #expect(RunningSleepRule.complete(among: [F.timer(1, expiresAt: now)], now: now) == .tellNoneRunning)
    }

    /// A completion already recorded is not recorded again.
    @Test func completeSkipsTimersBeingSaved() {
        let timers = [F.timer(1, completion: .pending), F.timer(2)]
        #expect(RunningSleepRule.complete(among: timers, now: now) == .complete(F.id(2)))
        #expect(RunningSleepRule.complete(among: [F.timer(1, completion: .needsApp)], now: now) == .tellNoneRunning)
    }

    // MARK: Open

    @Test func openOpensTheOneRunningSleep() {
        #expect(RunningSleepRule.open(among: [F.timer(1)]) == .open(F.id(1)))
    }

    /// The app finishes a Sleep the desktop can no longer complete.
    @Test func openCountsARunningSleepWhoseTokenRanOut() {
        #expect(RunningSleepRule.open(among: [F.timer(1, token: false)]) == .open(F.id(1)))
    }

    @Test func openWithNoneOpensTheAppHome() {
        #expect(RunningSleepRule.open(among: []) == .openAppHome)
    }

    @Test func openWithTwoRunningOpensTheAppHome() {
        #expect(RunningSleepRule.open(among: [F.timer(1), F.timer(2)]) == .openAppHome)
    }

    /// A Sleep being saved has ended: the other one is the running Sleep.
    @Test func openSkipsTimersWithARecordedCompletion() {
        #expect(RunningSleepRule.open(among: [F.timer(1, completion: .pending), F.timer(2)]) == .open(F.id(2)))
        #expect(RunningSleepRule.open(among: [F.timer(1, completion: .failed)]) == .openAppHome)
    }
}
