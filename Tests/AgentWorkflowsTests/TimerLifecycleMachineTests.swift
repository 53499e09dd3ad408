@testable import AgentWorkflows
import SleepTimerCore
import Testing

@Suite struct TimerLifecycleMachineTests {
    typealias F = WorkflowFixtures
    let now = F.now
    let lead: Duration = .seconds(30 * 60)

    func lifecycle() -> TimerLifecycleMachine { TimerLifecycleMachine(settings: .init(renewalLead: lead, longestSleep: .seconds(48 * 3600))) }

    @Test func aFreshTokenWakesTheAgentForItsRenewal() {
        var lifecycle = lifecycle()
        let expiresAt = now.adding(milliseconds: 12 * Milliseconds.hour)
        #expect(lifecycle.timersSeen([F.timer(expiresAt: expiresAt)], now: now).isEmpty)
        #expect(lifecycle.wakeAt == expiresAt - lead)
    }

    @Test func renewalIsAskedForOncePerToken() {
        var lifecycle = lifecycle()
        let expiresAt = now.plus(seconds: 600)
        #expect(lifecycle.timersSeen([F.timer(expiresAt: expiresAt)], now: now) == [.renewalDue(F.id(1), expiresAt: expiresAt)])
        #expect(lifecycle.timersSeen([F.timer(expiresAt: expiresAt)], now: now.plus(seconds: 1)).isEmpty)
        #expect(lifecycle.wakeAt == expiresAt)
    }

    @Test func aRenewedTokenIsWatchedAgain() {
        var lifecycle = lifecycle()
        _ = lifecycle.timersSeen([F.timer(expiresAt: now.plus(seconds: 600))], now: now)
        let renewed = now.adding(milliseconds: 12 * Milliseconds.hour)
        #expect(lifecycle.timersSeen([F.timer(revision: 4, expiresAt: renewed)], now: now).isEmpty)
        #expect(lifecycle.wakeAt == renewed - lead)
        #expect(lifecycle.timersSeen([F.timer(revision: 4, expiresAt: renewed)], now: renewed - lead)
            == [.renewalDue(F.id(1), expiresAt: renewed)])
    }

    @Test func aTokenThatRanOutKeepsTheTimerAndIsAnnouncedOnce() {
        var lifecycle = lifecycle()
        let timer = F.timer(expiresAt: now)
        // First seen run out (a suspend slept through its renewal): a new
        // one is asked for, once.
        #expect(lifecycle.timersSeen([timer], now: now) == [.tokenExpired(F.id(1)), .renewalDue(F.id(1), expiresAt: now)])
        #expect(lifecycle.timersSeen([timer], now: now.plus(seconds: 3600)).isEmpty)
        // Next: the end of the longest sleep, 48 h after the start.
        #expect(lifecycle.wakeAt == timer.timer.startedAt.adding(milliseconds: 48 * Milliseconds.hour))
    }

    @Test func aTokenWarnedOfBeforeItRanOutIsNotAskedForAgain() {
        var lifecycle = lifecycle()
        let expiresAt = now.plus(seconds: 600)
        #expect(lifecycle.timersSeen([F.timer(expiresAt: expiresAt)], now: now) == [.renewalDue(F.id(1), expiresAt: expiresAt)])
        #expect(lifecycle.timersSeen([F.timer(expiresAt: expiresAt)], now: expiresAt) == [.tokenExpired(F.id(1))])
    }

    @Test func aTimerStartedLongerAgoThanAnySleepIsDropped() {
        var lifecycle = lifecycle()
        let old = F.timer(1, startedAt: now.adding(milliseconds: -48 * Milliseconds.hour), expiresAt: now.plus(seconds: -1))
        let young = F.timer(2, expiresAt: now.adding(milliseconds: Milliseconds.hour))
        #expect(lifecycle.timersSeen([young, old], now: now) == [.remove([F.id(1)])])
    }

    @Test func aFailedCompletionStaysUntilTheLongestSleepEnds() {
        var lifecycle = lifecycle()
        let failed = F.timer(token: false, expiresAt: now.plus(seconds: -60), completion: .needsApp)
        #expect(lifecycle.timersSeen([failed], now: now).isEmpty)
        #expect(lifecycle.wakeAt == failed.timer.startedAt.adding(milliseconds: 48 * Milliseconds.hour))
    }

    @Test func aPendingCompletionIsLeftToTheCompletionMachine() {
        var lifecycle = lifecycle()
        let pending = F.timer(startedAt: now.adding(milliseconds: -49 * Milliseconds.hour), expiresAt: now, completion: .pending)
        #expect(lifecycle.timersSeen([pending], now: now).isEmpty)
        #expect(lifecycle.wakeAt == nil)
    }

    @Test func aTimerThatLeftIsForgottenSoItsReturnIsWarnedOfAgain() {
        var lifecycle = lifecycle()
        let expiresAt = now.plus(seconds: 600)
        _ = lifecycle.timersSeen([F.timer(expiresAt: expiresAt)], now: now)
        _ = lifecycle.timersSeen([], now: now)
        #expect(lifecycle.timersSeen([F.timer(expiresAt: expiresAt)], now: now) == [.renewalDue(F.id(1), expiresAt: expiresAt)])
    }

    @Test func theStateRemembersEachTokensWarningUntilItsTimerLeaves() {
        var lifecycle = lifecycle()
        #expect(lifecycle.state == TimerLifecycleMachine.State())
        let soon = now.plus(seconds: 600)
        _ = lifecycle.timersSeen([F.timer(1, expiresAt: soon), F.timer(2, expiresAt: now)], now: now)
        #expect(lifecycle.state.warned == [F.id(1): soon, F.id(2): now])
        #expect(lifecycle.state.ranOut == [F.id(2): now])
        #expect(lifecycle.state.wakeAt == soon)
        _ = lifecycle.timersSeen([], now: now)
        #expect(lifecycle.state == TimerLifecycleMachine.State())
    }

    @Test func nothingToWatchNeedsNoWakeUp() {
        var lifecycle = lifecycle()
        #expect(lifecycle.timersSeen([], now: now).isEmpty)
        #expect(lifecycle.wakeAt == nil)
    }

    @Test func aDropTheStoreDidNotTakeIsAskedAgainAfterTheHold() {
        var lifecycle = lifecycle()
        let old = F.timer(startedAt: now.adding(milliseconds: -49 * Milliseconds.hour))
        #expect(lifecycle.timersSeen([old], now: now) == [.remove([F.id(1)])])
        #expect(lifecycle.wakeAt == nil)
        lifecycle.removalNotStored(now: now)
        #expect(lifecycle.wakeAt == now.adding(StoreFailure.hold))
        #expect(lifecycle.timersSeen([old], now: now.adding(StoreFailure.hold)) == [.remove([F.id(1)])])
    }

    @Test func theHoldNeverPutsAnEarlierWakeUpOff() {
        var lifecycle = lifecycle()
        let soon = now.plus(seconds: 10)
        _ = lifecycle.timersSeen([F.timer(expiresAt: soon + lead)], now: now)
        lifecycle.removalNotStored(now: now)
        #expect(lifecycle.wakeAt == soon)
    }

    @Test func theCompletionsAndTheTimersHoldAlike() {
        #expect(TimerLifecycleMachine.Settings().storeFailureHold == CompletionMachine.Settings().storeFailureHold)
    }

    @Test func aTimerThatFailedToSaveOrWaitsForTheAppAsksForNoRenewal() {
        var lifecycle = lifecycle()
        let expiresAt = now.plus(seconds: 600)
        let timers = [F.timer(1, expiresAt: expiresAt, completion: .failed), F.timer(2, expiresAt: expiresAt, completion: .needsApp)]
        #expect(lifecycle.timersSeen(timers, now: now).isEmpty)
        #expect(lifecycle.timersSeen(timers, now: expiresAt).isEmpty)
    }

    @Test func aTimerWithoutATokenAsksForNoRenewal() {
        var lifecycle = lifecycle()
        let expiresAt = now.plus(seconds: 600)
        #expect(lifecycle.timersSeen([F.timer(token: false, expiresAt: expiresAt)], now: now).isEmpty)
        #expect(lifecycle.timersSeen([F.timer(token: false, expiresAt: expiresAt)], now: expiresAt).isEmpty)
    }
}
