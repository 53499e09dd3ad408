import SleepTimerCore
import SleepTimersAPI

/// Who starts dfl-sleep-agent inside the Flatpak, at login and after a
/// crash. On the host the .deb's systemd unit, its XDG autostart entry and
/// D-Bus activation of the public name do it, and this rule does nothing.
/// A Flatpak can export none of those, so the app, at each start:
///
/// - at its first start only, asks the Background portal for the agent's
///   autostart (or for none, when the person turned Start at login off
///   before). Every RequestBackground writes the portal's entry afresh for
///   autostart, or removes it for none, so asking at each start would undo
///   an entry the desktop's settings disabled (KDE writes `Hidden=true`
///   into it); the portal keeps its permission answer in its permission
///   store, so nothing is lost by not asking again. The menu's Start at
///   login asks again (StartAtLoginRule);
/// - starts the agent by D-Bus activation of its name under the app's id,
///   which the Flatpak exports a service file for (a call from another app
///   starts it the same way).
///
/// While the app runs, an agent that leaves the bus while timers were
/// mirrored has crashed or been killed (it never leaves on its own with a
/// timer): it is started again the same way, once for each time it was
/// seen on the bus, so an agent that cannot start is not started in a loop;
/// and at most `restartLimit` times in one run of the app.
///
/// DesktopApplication+SandboxAgent tells it what happened, one method per
/// event, and carries out what each returns.
public struct SandboxAgentMachine: Sendable, Equatable {
    /// The agent's command inside the sandbox, for the autostart entry the
    /// portal writes (`flatpak run --command=dfl-sleep-agent APPID`).
    public static let agentCommandLine = ["dfl-sleep-agent"]
    /// Restarts in one run of the app, at most.
    public static let restartLimit = 5

    public struct State: Sendable, Equatable {
        /// The agent as the app last saw it. One value rather than three
        /// flags: an agent is absent, asked for, or on the bus, and only on
        /// the bus does what its last List gave mean anything.
        public enum Agent: Sendable, Equatable {
            case absent
            /// A start was asked and the agent has not been seen since.
            case starting
            /// On the bus; `timers`: its last List had a timer, so its
            /// leaving is a crash.
            case present(timers: Bool)
        }

        /// The app runs in a Flatpak: only then does the machine act.
        public fileprivate(set) var sandboxed = false
        public fileprivate(set) var agent = Agent.absent
        public fileprivate(set) var restarts = 0
        /// The autostart the last RequestBackground asked for.
        public fileprivate(set) var autostartAsked = true

        public var agentPresent: Bool { if case .present = agent { true } else { false } }
        public var timersKnown: Bool { agent == .present(timers: true) }
        public var startPending: Bool { agent == .starting }

        /// Nothing known: the app's start.
        public init() {}
    }

    private(set) var state = State()

    public init() {}

    /// Why the agent is started, for the log line.
    public enum StartReason: Sendable, Equatable {
        case appStarted
        case agentVanished
    }

    /// What the log says of the portal's answer, or of a restart not made.
    public enum Report: Sendable, Equatable {
        case autostartOn
        /// Allowed in the background, but the entry was not written.
        case autostartNotWritten
        /// Allowed in the background, no entry, as the person chose.
        case autostartOff
        /// The user refused (now or before): the agent runs while the app
        /// runs, and starts again with the app.
        case backgroundRefused
        case portalUnavailable(String)
        case restartLimitReached(Int)
    }

    public enum StartedAction: Sendable, Equatable {
        /// org.freedesktop.portal.Background.RequestBackground with
        /// autostart of `commandLine` (or none), not D-Bus activatable (the
        /// entry runs the command).
        case requestBackground(commandLine: [String], autostart: Bool)
        /// org.freedesktop.DBus.StartServiceByName(`busName`).
        case startAgent(busName: String)
    }

    /// The app started, in this place, with Start at login as the person
    /// left it, and whether the portal was asked at an earlier start: in
    /// the sandbox it asks for the agent's autostart (or none) the first
    /// time only, and starts the agent.
    public mutating func started(_ place: RunningPlace, startAtLogin: Bool, askedBefore: Bool) -> [StartedAction] {
        state.sandboxed = place.isSandboxed
        guard state.sandboxed else { return [] }
        state.agent = .starting
        state.autostartAsked = startAtLogin
        let start = StartedAction.startAgent(busName: SleepTimers1.busName)
        if askedBefore { return [start] }
        return [.requestBackground(commandLine: Self.agentCommandLine, autostart: startAtLogin), start]
    }

    public enum StartAtLoginChosenAction: Sendable, Equatable {
        /// RequestBackground again, with the autostart chosen.
        case requestBackground(commandLine: [String], autostart: Bool)
    }

    /// The person turned Start at login on or off: in the sandbox the
    /// portal writes or removes the entry; nil on the host.
    public mutating func startAtLoginChosen(_ on: Bool) -> StartAtLoginChosenAction? {
        guard state.sandboxed else { return nil }
        state.autostartAsked = on
        return .requestBackground(commandLine: Self.agentCommandLine, autostart: on)
    }

    /// The agent's name has an owner.
    public mutating func agentAppeared() {
        state.agent = .present(timers: false)
    }

    /// How many timers the agent's last List gave.
    public mutating func timersListed(count: Int) {
        // The empty List that follows a vanished agent is not news.
        if state.agentPresent { state.agent = .present(timers: count > 0) }
    }

    public enum AgentVanishedAction: Sendable, Equatable {
        /// org.freedesktop.DBus.StartServiceByName(`busName`) again.
        case startAgent(busName: String)
        /// Said in the log: the agent is not started again in this run.
        case restartLimitReached(Int)
    }

    /// The agent's name lost its owner: a crash when it had timers, and
    /// it is started again unless a start is already on its way.
    public mutating func agentVanished() -> AgentVanishedAction? {
        let crashed = state.timersKnown
        // A start on its way stays on its way: a stale watch's word that
        // the name is gone starts nothing more.
        if state.agentPresent { state.agent = .absent }
        guard state.sandboxed, crashed else { return nil }
        guard state.restarts < Self.restartLimit else { return .restartLimitReached(state.restarts) }
        state.restarts += 1
        state.agent = .starting
        return .startAgent(busName: SleepTimers1.busName)
    }

    /// Each said in the log.
    public enum BackgroundAnsweredAction: Sendable, Equatable {
        case autostartOn
        case autostartNotWritten
        case autostartOff
        case backgroundRefused
    }

    /// The Background portal's Response: `allowed` to run in the
    /// background, and whether the `autostart` entry was written.
    public mutating func backgroundAnswered(allowed: Bool, autostart: Bool) -> BackgroundAnsweredAction? {
        guard state.sandboxed else { return nil }
        if !allowed { return .backgroundRefused }
        if !state.autostartAsked { return .autostartOff }
        return autostart ? .autostartOn : .autostartNotWritten
    }

    public enum BackgroundFailedAction: Sendable, Equatable {
        /// Said in the log, with the reason.
        case portalUnavailable(String)
    }

    /// The portal could not be asked (none runs, no Background backend).
    public mutating func backgroundFailed(_ reason: String) -> BackgroundFailedAction? {
        guard state.sandboxed else { return nil }
        return .portalUnavailable(reason)
    }
}
