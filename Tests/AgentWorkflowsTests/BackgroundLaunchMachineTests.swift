@testable import AgentWorkflows
import SleepTimerCore
import Testing

@Suite struct BackgroundLaunchMachineTests {
    typealias F = WorkflowFixtures
    let now = F.now
    let bound = 60 * Milliseconds.second

    func launcher(enabled: Bool = true) -> BackgroundLaunchMachine {
        BackgroundLaunchMachine(settings: .init(enabled: enabled, renewalBound: .seconds(60), perTimerInterval: .seconds(3600)))
    }

    @Test func aRenewalThatDoesNotComeWithinTheBoundLaunchesTheApp() {
        var launch = launcher()
        let expiresAt = now.plus(seconds: 600)
        launch.renewalAsked(F.id(1), expiresAt: expiresAt, now: now)
        #expect(launch.wakeAt == now.adding(milliseconds: bound))
        #expect(launch.woke(now: now.plus(seconds: 59)) == [])
        #expect(launch.woke(now: now.plus(seconds: 60)) == [.launch([F.id(1)])])
        #expect(launch.wakeAt == nil)
    }

    @Test func aRenewalInTimeLaunchesNothing() {
        var launch = launcher()
        let expiresAt = now.plus(seconds: 600)
        launch.renewalAsked(F.id(1), expiresAt: expiresAt, now: now)
        launch.mirrored(F.id(1), expiresAt: expiresAt.plus(seconds: 600))
        #expect(launch.wakeAt == nil)
        #expect(launch.woke(now: now.plus(seconds: 120)) == [])
    }

    @Test func theSameTokenMirroredAgainIsNoRenewal() {
        var launch = launcher()
        let expiresAt = now.plus(seconds: 600)
        launch.renewalAsked(F.id(1), expiresAt: expiresAt, now: now)
        launch.mirrored(F.id(1), expiresAt: expiresAt)
        #expect(launch.woke(now: now.plus(seconds: 60)) == [.launch([F.id(1)])])
    }

    @Test func timersRestoredAtTheStartLaunchTheAppOnceForAll() {
        var launch = launcher()
        #expect(launch.restored([F.id(2), F.id(1)], now: now) == [.launch([F.id(1), F.id(2)])])
        #expect(launch.restored([], now: now) == [])
    }

    @Test func restoredTimersNeedTheAppWhileNoCompletionIsRecorded() {
        var launch = launcher()
        let expired = F.timer(3, token: false, expiresAt: now.adding(milliseconds: -Milliseconds.minute))
        let timers = [F.timer(1), F.timer(2, completion: .pending), expired, F.timer(4, completion: .failed),
                      F.timer(5, completion: .needsApp)]
        #expect(launch.restored(timers: timers, now: now) == [.launch([F.id(1), F.id(3)])])
        var none = launcher()
        #expect(none.restored(timers: [F.timer(2, completion: .pending)], now: now) == [])
    }

    @Test func atMostOnceAnHourForATimer() {
        var launch = launcher()
        #expect(launch.restored([F.id(1)], now: now) == [.launch([F.id(1)])])
        // Signed out: the app renews nothing, the next token warning comes.
        launch.renewalAsked(F.id(1), expiresAt: now.plus(seconds: 600), now: now.plus(seconds: 10))
        #expect(launch.woke(now: now.plus(seconds: 70)) == [.heldBack([F.id(1)])])
        launch.renewalAsked(F.id(1), expiresAt: now.plus(seconds: 7200), now: now.plus(seconds: 3599))
        #expect(launch.woke(now: now.plus(seconds: 3659)) == [.launch([F.id(1)])])
    }

    @Test func exactlyAnHourAfterTheLastLaunchTheTimerLaunchesAgain() {
        var launch = launcher()
        _ = launch.restored([F.id(1)], now: now)
        launch.renewalAsked(F.id(1), expiresAt: now.plus(seconds: 7200), now: now.plus(seconds: 3540))
        #expect(launch.woke(now: now.plus(seconds: 3600)) == [.launch([F.id(1)])])
    }

    @Test func anotherTimerIsNotHeldBackByTheFirstOnesLaunch() {
        var launch = launcher()
        _ = launch.restored([F.id(1)], now: now)
        launch.renewalAsked(F.id(1), expiresAt: now.plus(seconds: 600), now: now)
        launch.renewalAsked(F.id(2), expiresAt: now.plus(seconds: 600), now: now)
        #expect(launch.woke(now: now.plus(seconds: 60)) == [.launch([F.id(2)]), .heldBack([F.id(1)])])
    }

    @Test func aRemovedTimerIsForgotten() {
        var launch = launcher()
        _ = launch.restored([F.id(1)], now: now)
        launch.renewalAsked(F.id(1), expiresAt: now.plus(seconds: 600), now: now)
        launch.removed(F.id(1))
        #expect(launch.wakeAt == nil)
        #expect(launch.woke(now: now.plus(seconds: 60)) == [])
    }

    @Test func switchedOffNothingIsLaunched() {
        var launch = launcher(enabled: false)
        #expect(launch.restored([F.id(1)], now: now) == [])
        launch.renewalAsked(F.id(1), expiresAt: now.plus(seconds: 600), now: now)
        #expect(launch.wakeAt == nil)
        #expect(launch.woke(now: now.plus(seconds: 60)) == [])
    }
}

/// The transitions the machine's state goes through, one at a time.
@Suite struct BackgroundLaunchMachineStateTests {
    typealias F = WorkflowFixtures
    let now = F.now

    @Test func theDefaultsWaitAMinuteForARenewalAndAnHourBetweenLaunches() {
        let settings = BackgroundLaunchMachine.Settings()
        #expect(settings.enabled)
        #expect(settings.renewalBound == .seconds(60))
        #expect(settings.perTimerInterval == .seconds(3600))
    }

    @Test func aRenewalAskedForIsAwaitedUntilItsBound() {
        var launch = BackgroundLaunchMachine()
        launch.renewalAsked(F.id(1), expiresAt: now.plus(seconds: 600), now: now)
        #expect(launch.state.awaiting == [F.id(1): .init(expiresAt: now.plus(seconds: 600), deadline: now.plus(seconds: 60))])
        #expect(launch.state.lastLaunch == [:])
    }

    @Test func aLaunchIsRememberedForItsTimerAndAWokenBoundIsForgotten() {
        var launch = BackgroundLaunchMachine()
        launch.renewalAsked(F.id(1), expiresAt: now.plus(seconds: 600), now: now)
        #expect(launch.woke(now: now.plus(seconds: 60)) == [.launch([F.id(1)])])
        #expect(launch.state.awaiting == [:])
        #expect(launch.state.lastLaunch == [F.id(1): now.plus(seconds: 60)])
    }

    @Test func aTimerRemovedAndBroughtBackIsNotHeldBackByItsEarlierLaunch() {
        var launch = BackgroundLaunchMachine()
        _ = launch.restored([F.id(1)], now: now)
        launch.removed(F.id(1))
        #expect(launch.state == .init())
        launch.renewalAsked(F.id(1), expiresAt: now.plus(seconds: 600), now: now.plus(seconds: 10))
        #expect(launch.woke(now: now.plus(seconds: 70)) == [.launch([F.id(1)])])
    }

    @Test func switchedOffAfterTheAskNothingIsLaunchedAndTheBoundIsForgotten() {
        var launch = BackgroundLaunchMachine()
        launch.renewalAsked(F.id(1), expiresAt: now.plus(seconds: 600), now: now)
        launch.settings.enabled = false
        #expect(launch.woke(now: now.plus(seconds: 60)) == [])
        #expect(launch.wakeAt == nil)
    }

    @Test func anEarlyWakeLaunchesNothingAndKeepsTheBound() {
        var launch = BackgroundLaunchMachine()
        launch.renewalAsked(F.id(1), expiresAt: now.plus(seconds: 600), now: now)
        #expect(launch.woke(now: now.plus(seconds: 30)) == [])
        #expect(launch.wakeAt == now.plus(seconds: 60))
    }
}
