import DesktopAppCore
import SleepTimerCore
import Testing

@Suite struct SandboxAgentKeeperTests {
    static let sandbox = RunningPlace.flatpak(appID: "com.dreamsforlittles.App")
    static let scoped = "com.dreamsforlittles.App.SleepTimers1"

    /// A keeper in the sandbox whose agent is on the bus with `timers` timers.
    func running(timers: Int) -> SandboxAgentKeeper {
        var keeper = SandboxAgentKeeper()
        _ = keeper.handle(.started(Self.sandbox))
        _ = keeper.handle(.agentAppeared)
        _ = keeper.handle(.timers(count: timers))
        return keeper
    }

    @Test func onTheHostNothingIsAskedOrStarted() {
        var keeper = SandboxAgentKeeper()
        #expect(keeper.handle(.started(.host)) == [])
        #expect(keeper.handle(.agentAppeared) == [])
        #expect(keeper.handle(.timers(count: 1)) == [])
        #expect(keeper.handle(.agentVanished) == [])
        #expect(keeper.handle(.backgroundAnswered(allowed: true, autostart: true)) == [])
        #expect(keeper.handle(.backgroundFailed("no portal")) == [])
    }

    @Test func inTheSandboxEachStartAsksForAutostartAndStartsTheAgent() {
        var keeper = SandboxAgentKeeper()
        #expect(keeper.handle(.started(Self.sandbox)) == [
            .requestBackground(commandLine: ["dfl-sleep-agent"]),
            .startAgent(busName: Self.scoped, why: .appStarted),
        ])
    }

    @Test func theAgentLeavingWithATimerIsStartedAgain() {
        var keeper = running(timers: 1)
        #expect(keeper.handle(.agentVanished) == [.startAgent(busName: Self.scoped, why: .agentVanished)])
    }

    @Test func theAgentLeavingWithNoTimerIsLeftAlone() {
        var keeper = running(timers: 0)
        #expect(keeper.handle(.agentVanished) == [])
    }

    @Test func theEmptyListAfterTheAgentLeftDoesNotHideItsTimers() {
        var keeper = running(timers: 2)
        _ = keeper.handle(.agentVanished)
        // The watch reports no timers once the agent is gone; a new start
        // is already on its way.
        #expect(keeper.handle(.timers(count: 0)) == [])
        #expect(keeper.handle(.agentVanished) == [])
    }

    @Test func aStartThatNeverBroughtTheAgentIsNotRepeated() {
        var keeper = running(timers: 1)
        _ = keeper.handle(.agentVanished)
        // No agentAppeared: the start failed; a second vanish (a stale
        // watch) asks nothing more.
        #expect(keeper.handle(.agentVanished) == [])
    }

    @Test func anAgentThatCameBackAndCrashedAgainIsStartedAgain() {
        var keeper = running(timers: 1)
        _ = keeper.handle(.agentVanished)
        _ = keeper.handle(.agentAppeared)
        _ = keeper.handle(.timers(count: 1))
        #expect(keeper.handle(.agentVanished) == [.startAgent(busName: Self.scoped, why: .agentVanished)])
        #expect(keeper.restarts == 2)
    }

    @Test func anAgentBackWithoutTimersIsNotStartedWhenItLeaves() {
        var keeper = running(timers: 1)
        _ = keeper.handle(.agentVanished)
        _ = keeper.handle(.agentAppeared)
        _ = keeper.handle(.timers(count: 0))
        #expect(keeper.handle(.agentVanished) == [])
    }

    @Test func aNewKeeperKnowsNothingYet() {
        let keeper = SandboxAgentKeeper()
        #expect(!keeper.sandboxed && !keeper.agentPresent && !keeper.timersKnown && !keeper.startPending)
        #expect(keeper.restarts == 0)
    }

    @Test func anAgentThatLeavesBeforeItsFirstListIsLeftAlone() {
        var keeper = SandboxAgentKeeper()
        _ = keeper.handle(.started(Self.sandbox))
        _ = keeper.handle(.agentAppeared)
        #expect(keeper.handle(.agentVanished) == [])
    }

    @Test func anAgentBackThatLeavesBeforeItsListIsNotStartedAgain() {
        var keeper = running(timers: 1)
        _ = keeper.handle(.agentVanished)
        #expect(!keeper.agentPresent && !keeper.timersKnown)
        _ = keeper.handle(.agentAppeared)
        #expect(keeper.handle(.agentVanished) == [])
        #expect(keeper.restarts == 1)
    }

    @Test func aRestartIsPendingUntilTheAgentIsSeen() {
        var keeper = running(timers: 1)
        _ = keeper.handle(.agentVanished)
        #expect(keeper.startPending)
    }

    @Test func anAgentLeavingWhileTheStartAtLaunchIsPendingIsNotStartedAgain() {
        // The agent was on the bus before the app's start asked for it.
        var keeper = SandboxAgentKeeper()
        _ = keeper.handle(.agentAppeared)
        _ = keeper.handle(.started(Self.sandbox))
        _ = keeper.handle(.timers(count: 1))
        #expect(keeper.handle(.agentVanished) == [])
        #expect(keeper.restarts == 0)
    }

    @Test func restartsStopAtTheLimit() {
        var keeper = running(timers: 1)
        for _ in 0..<SandboxAgentKeeper.restartLimit {
            #expect(keeper.handle(.agentVanished) == [.startAgent(busName: Self.scoped, why: .agentVanished)])
            _ = keeper.handle(.agentAppeared)
            _ = keeper.handle(.timers(count: 1))
        }
        #expect(keeper.handle(.agentVanished) == [.report(.restartLimitReached(SandboxAgentKeeper.restartLimit))])
    }

    @Test func theStartAtLaunchCountsAsPendingUntilTheAgentIsSeen() {
        var keeper = SandboxAgentKeeper()
        _ = keeper.handle(.started(Self.sandbox))
        #expect(keeper.startPending)
        _ = keeper.handle(.agentAppeared)
        #expect(!keeper.startPending)
    }

    @Test func thePortalsAnswersAreReported() {
        var keeper = SandboxAgentKeeper()
        _ = keeper.handle(.started(Self.sandbox))
        #expect(keeper.handle(.backgroundAnswered(allowed: true, autostart: true)) == [.report(.autostartOn)])
        #expect(keeper.handle(.backgroundAnswered(allowed: true, autostart: false)) == [.report(.autostartNotWritten)])
        #expect(keeper.handle(.backgroundAnswered(allowed: false, autostart: false)) == [.report(.backgroundRefused)])
        #expect(keeper.handle(.backgroundFailed("no Background backend")) == [.report(.portalUnavailable("no Background backend"))])
    }

    @Test func aRefusalChangesNothingElse() {
        var keeper = running(timers: 1)
        _ = keeper.handle(.backgroundAnswered(allowed: false, autostart: false))
        #expect(keeper.handle(.agentVanished) == [.startAgent(busName: Self.scoped, why: .agentVanished)])
    }
}
