@testable import DesktopAppCore
import SleepTimerCore
import Testing

@Suite struct SandboxAgentMachineTests {
    static let sandbox = RunningPlace.flatpak(appID: "com.dreamsforlittles.DreamsForLittles")
    static let scoped = "com.dreamsforlittles.DreamsForLittles.SleepTimers1"

    /// A machine in the sandbox whose agent is on the bus with `timers` timers.
    func running(timers: Int) -> SandboxAgentMachine {
        var machine = SandboxAgentMachine()
        _ = machine.started(Self.sandbox, startAtLogin: true, askedBefore: false)
        machine.agentAppeared()
        machine.timersListed(count: timers)
        return machine
    }

    @Test func onTheHostNothingIsAskedOrStarted() {
        var machine = SandboxAgentMachine()
        #expect(machine.started(.host, startAtLogin: true, askedBefore: false) == [])
        // agentAppeared and timersListed lead to nothing anywhere: they
        // return nothing.
        machine.agentAppeared()
        machine.timersListed(count: 1)
        #expect(machine.agentVanished() == nil)
        #expect(machine.backgroundAnswered(allowed: true, autostart: true) == nil)
        #expect(machine.backgroundFailed("no portal") == nil)
    }

    @Test func aLaterStartAsksThePortalNothingAndStartsTheAgent() {
        // Asking again would write back an entry the desktop disabled.
        var machine = SandboxAgentMachine()
        #expect(machine.started(Self.sandbox, startAtLogin: true, askedBefore: true) == [.startAgent(busName: Self.scoped)])
        var off = SandboxAgentMachine()
        #expect(off.started(Self.sandbox, startAtLogin: false, askedBefore: true) == [.startAgent(busName: Self.scoped)])
        #expect(!off.state.autostartAsked)
        #expect(off.startAtLoginChosen(true) == .requestBackground(commandLine: ["dfl-sleep-agent"], autostart: true))
    }

    @Test func theFirstStartInTheSandboxAsksForAutostartAndStartsTheAgent() {
        var machine = SandboxAgentMachine()
        #expect(machine.started(Self.sandbox, startAtLogin: true, askedBefore: false) == [
            .requestBackground(commandLine: ["dfl-sleep-agent"], autostart: true),
            .startAgent(busName: Self.scoped),
        ])
    }

    @Test func theAgentLeavingWithATimerIsStartedAgain() {
        var machine = running(timers: 1)
        #expect(machine.agentVanished() == .startAgent(busName: Self.scoped))
    }

    @Test func theAgentLeavingWithNoTimerIsLeftAlone() {
        var machine = running(timers: 0)
        #expect(machine.agentVanished() == nil)
    }

    @Test func theEmptyListAfterTheAgentLeftDoesNotHideItsTimers() {
        var machine = running(timers: 2)
        _ = machine.agentVanished()
        // The watch reports no timers once the agent is gone; a new start
        // is already on its way.
        machine.timersListed(count: 0)
        #expect(!machine.state.timersKnown)
        #expect(machine.agentVanished() == nil)
    }

    @Test func aListAfterAnAgentLeftWithoutTimersIsNotNews() {
        // The agent left with nothing mirrored: it is gone, and what a stale
        // watch's List says of it afterwards makes no later leaving a crash.
        var machine = running(timers: 0)
        #expect(machine.agentVanished() == nil)
        machine.timersListed(count: 1)
        #expect(!machine.state.agentPresent && !machine.state.timersKnown)
        #expect(machine.agentVanished() == nil)
    }

    @Test func aStartThatNeverBroughtTheAgentIsNotRepeated() {
        var machine = running(timers: 1)
        _ = machine.agentVanished()
        // No agentAppeared: the start failed; a second vanish (a stale
        // watch) asks nothing more.
        #expect(machine.agentVanished() == nil)
    }

    @Test func anAgentThatCameBackAndCrashedAgainIsStartedAgain() {
        var machine = running(timers: 1)
        _ = machine.agentVanished()
        machine.agentAppeared()
        machine.timersListed(count: 1)
        #expect(machine.agentVanished() == .startAgent(busName: Self.scoped))
        #expect(machine.state.restarts == 2)
    }

    @Test func anAgentBackWithoutTimersIsNotStartedWhenItLeaves() {
        var machine = running(timers: 1)
        _ = machine.agentVanished()
        machine.agentAppeared()
        machine.timersListed(count: 0)
        #expect(machine.agentVanished() == nil)
    }

    @Test func aNewMachineKnowsNothingYet() {
        let machine = SandboxAgentMachine()
        #expect(!machine.state.sandboxed && !machine.state.agentPresent && !machine.state.timersKnown && !machine.state.startPending)
        #expect(machine.state.restarts == 0)
    }

    @Test func anAgentThatLeavesBeforeItsFirstListIsLeftAlone() {
        var machine = SandboxAgentMachine()
        _ = machine.started(Self.sandbox, startAtLogin: true, askedBefore: false)
        machine.agentAppeared()
        #expect(machine.agentVanished() == nil)
    }

    @Test func anAgentBackThatLeavesBeforeItsListIsNotStartedAgain() {
        var machine = running(timers: 1)
        _ = machine.agentVanished()
        #expect(!machine.state.agentPresent && !machine.state.timersKnown)
        machine.agentAppeared()
        #expect(machine.agentVanished() == nil)
        #expect(machine.state.restarts == 1)
    }

    @Test func aRestartIsPendingUntilTheAgentIsSeen() {
        var machine = running(timers: 1)
        _ = machine.agentVanished()
        #expect(machine.state.startPending)
    }

    @Test func anAgentLeavingWhileTheStartAtLaunchIsPendingIsNotStartedAgain() {
        // The agent was on the bus before the app's start asked for it.
        var machine = SandboxAgentMachine()
        machine.agentAppeared()
        _ = machine.started(Self.sandbox, startAtLogin: true, askedBefore: false)
        machine.timersListed(count: 1)
        #expect(machine.agentVanished() == nil)
        #expect(machine.state.restarts == 0)
    }

    @Test func restartsStopAtTheLimit() {
        var machine = running(timers: 1)
        for _ in 0..<SandboxAgentMachine.restartLimit {
            #expect(machine.agentVanished() == .startAgent(busName: Self.scoped))
            machine.agentAppeared()
            machine.timersListed(count: 1)
        }
        #expect(machine.agentVanished() == .restartLimitReached(SandboxAgentMachine.restartLimit))
    }

    @Test func theStartAtLaunchCountsAsPendingUntilTheAgentIsSeen() {
        var machine = SandboxAgentMachine()
        _ = machine.started(Self.sandbox, startAtLogin: true, askedBefore: false)
        #expect(machine.state.startPending)
        machine.agentAppeared()
        #expect(!machine.state.startPending)
    }

    @Test func thePortalsAnswersAreReported() {
        var machine = SandboxAgentMachine()
        _ = machine.started(Self.sandbox, startAtLogin: true, askedBefore: false)
        #expect(machine.backgroundAnswered(allowed: true, autostart: true) == .autostartOn)
        #expect(machine.backgroundAnswered(allowed: true, autostart: false) == .autostartNotWritten)
        #expect(machine.backgroundAnswered(allowed: false, autostart: false) == .backgroundRefused)
        #expect(machine.backgroundFailed("no Background backend") == .portalUnavailable("no Background backend"))
    }

    @Test func aRefusalChangesNothingElse() {
        var machine = running(timers: 1)
        _ = machine.backgroundAnswered(allowed: false, autostart: false)
        #expect(machine.agentVanished() == .startAgent(busName: Self.scoped))
    }

    @Test func startAtLoginOffAsksThePortalForNoEntryAndSaysSo() {
        // Before any start, autostart is what the app would ask: on by default.
        #expect(SandboxAgentMachine().state.autostartAsked)
        var machine = SandboxAgentMachine()
        #expect(machine.started(Self.sandbox, startAtLogin: false, askedBefore: false) == [
            .requestBackground(commandLine: ["dfl-sleep-agent"], autostart: false),
            .startAgent(busName: Self.scoped),
        ])
        #expect(machine.backgroundAnswered(allowed: true, autostart: false) == .autostartOff)
        #expect(machine.backgroundAnswered(allowed: false, autostart: false) == .backgroundRefused)
    }

    @Test func choosingStartAtLoginAsksThePortalAgainInTheSandboxOnly() {
        var machine = SandboxAgentMachine()
        _ = machine.started(Self.sandbox, startAtLogin: true, askedBefore: false)
        #expect(machine.startAtLoginChosen(false) == .requestBackground(commandLine: ["dfl-sleep-agent"], autostart: false))
        #expect(!machine.state.autostartAsked)
        #expect(machine.startAtLoginChosen(true) == .requestBackground(commandLine: ["dfl-sleep-agent"], autostart: true))
        #expect(machine.backgroundAnswered(allowed: true, autostart: true) == .autostartOn)
        var host = SandboxAgentMachine()
        _ = host.started(.host, startAtLogin: true, askedBefore: false)
        #expect(host.startAtLoginChosen(false) == nil)
    }
}
