import AgentWorkflows
import SleepTimerCore
import Testing

@Suite struct BackgroundLaunchTests {
    typealias F = WorkflowFixtures
    let now = F.now
    let bound = 60 * Milliseconds.second

    func launcher(enabled: Bool = true) -> BackgroundLaunch {
        BackgroundLaunch(settings: .init(enabled: enabled, renewalBound: bound, perTimerInterval: Milliseconds.hour))
    }

    @Test func aRenewalThatDoesNotComeWithinTheBoundLaunchesTheApp() {
        var launch = launcher()
        let expiresAt = now.plus(seconds: 600)
        launch.renewalAsked(F.id(1), expiresAt: expiresAt, now: now)
        #expect(launch.wakeAt == now.adding(milliseconds: bound))
        #expect(launch.check(now: now.plus(seconds: 59)) == [])
        #expect(launch.check(now: now.plus(seconds: 60)) == [.launch([F.id(1)])])
        #expect(launch.wakeAt == nil)
    }

    @Test func aRenewalInTimeLaunchesNothing() {
        var launch = launcher()
        let expiresAt = now.plus(seconds: 600)
        launch.renewalAsked(F.id(1), expiresAt: expiresAt, now: now)
        launch.mirrored(F.id(1), expiresAt: expiresAt.plus(seconds: 600))
        #expect(launch.wakeAt == nil)
        #expect(launch.check(now: now.plus(seconds: 120)) == [])
    }

    @Test func theSameTokenMirroredAgainIsNoRenewal() {
        var launch = launcher()
        let expiresAt = now.plus(seconds: 600)
        launch.renewalAsked(F.id(1), expiresAt: expiresAt, now: now)
        launch.mirrored(F.id(1), expiresAt: expiresAt)
        #expect(launch.check(now: now.plus(seconds: 60)) == [.launch([F.id(1)])])
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
        #expect(launch.check(now: now.plus(seconds: 70)) == [.heldBack([F.id(1)])])
        launch.renewalAsked(F.id(1), expiresAt: now.plus(seconds: 7200), now: now.plus(seconds: 3599))
        #expect(launch.check(now: now.plus(seconds: 3659)) == [.launch([F.id(1)])])
    }

    @Test func anotherTimerIsNotHeldBackByTheFirstOnesLaunch() {
        var launch = launcher()
        _ = launch.restored([F.id(1)], now: now)
        launch.renewalAsked(F.id(1), expiresAt: now.plus(seconds: 600), now: now)
        launch.renewalAsked(F.id(2), expiresAt: now.plus(seconds: 600), now: now)
        #expect(launch.check(now: now.plus(seconds: 60)) == [.launch([F.id(2)]), .heldBack([F.id(1)])])
    }

    @Test func aRemovedTimerIsForgotten() {
        var launch = launcher()
        _ = launch.restored([F.id(1)], now: now)
        launch.renewalAsked(F.id(1), expiresAt: now.plus(seconds: 600), now: now)
        launch.removed(F.id(1))
        #expect(launch.wakeAt == nil)
        #expect(launch.check(now: now.plus(seconds: 60)) == [])
    }

    @Test func switchedOffNothingIsLaunched() {
        var launch = launcher(enabled: false)
        #expect(launch.restored([F.id(1)], now: now) == [])
        launch.renewalAsked(F.id(1), expiresAt: now.plus(seconds: 600), now: now)
        #expect(launch.wakeAt == nil)
        #expect(launch.check(now: now.plus(seconds: 60)) == [])
    }
}
