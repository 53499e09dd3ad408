import SleepTimerCore
import SleepTimersAPI

/// Who starts dfl-sleep-agent inside the Flatpak, at login and after a
/// crash. On the host the .deb's systemd unit, its XDG autostart entry and
/// D-Bus activation of the public name do it, and this rule does nothing.
/// A Flatpak can export none of those, so the app, at each start:
///
/// - asks the Background portal for the agent's autostart. Asking at every
///   start is what the portal expects: xdg-desktop-portal keeps the user's
///   answer in its permission store and asks only while none is stored, so
///   a user who refused is not asked again (the answer is "no" at once),
///   and for one who allowed it the entry is written again, so an entry
///   the user deleted comes back;
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
/// `(state, event) -> [action]`; DesktopApplication+SandboxAgent carries
/// the actions out.
public struct SandboxAgentKeeper: Sendable, Equatable {
    /// The agent's command inside the sandbox, for the autostart entry the
    /// portal writes (`flatpak run --command=dfl-sleep-agent APPID`).
    public static let agentCommandLine = ["dfl-sleep-agent"]
    /// Restarts in one run of the app, at most.
    public static let restartLimit = 5

    public enum Event: Sendable, Equatable {
        /// The app started, in this place.
        case started(RunningPlace)
        /// The agent's name has an owner.
        case agentAppeared
        /// The agent's name lost its owner.
        case agentVanished
        /// How many timers the agent's last List gave.
        case timers(count: Int)
        /// The Background portal's Response: `background` (allowed to run
        /// in the background) and `autostart` (the entry was written).
        case backgroundAnswered(allowed: Bool, autostart: Bool)
        /// The portal could not be asked (none runs, no Background
        /// backend); the reason in the log.
        case backgroundFailed(String)
    }

    public enum Action: Sendable, Equatable {
        /// org.freedesktop.portal.Background.RequestBackground with
        /// autostart of `commandLine`, not D-Bus activatable (the entry
        /// runs the command).
        case requestBackground(commandLine: [String])
        /// org.freedesktop.DBus.StartServiceByName(`busName`).
        case startAgent(busName: String, why: StartReason)
        /// A line for the log: what the portal answered, or why the agent
        /// is not started again.
        case report(Report)
    }

    public enum StartReason: Sendable, Equatable {
        case appStarted
        case agentVanished
    }

    public enum Report: Sendable, Equatable {
        case autostartOn
        /// Allowed in the background, but the entry was not written.
        case autostartNotWritten
        /// The user refused (now or before): the agent runs while the app
        /// runs, and starts again with the app.
        case backgroundRefused
        case portalUnavailable(String)
        case restartLimitReached(Int)
    }

    public private(set) var sandboxed = false
    public private(set) var agentPresent = false
    /// The agent's last List had a timer: its leaving is a crash.
    public private(set) var timersKnown = false
    /// A start was asked and the agent has not been seen since.
    public private(set) var startPending = false
    public private(set) var restarts = 0

    public init() {}

    public mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .started(let place):
            sandboxed = place.isSandboxed
            guard sandboxed else { return [] }
            startPending = true
            return [
                .requestBackground(commandLine: Self.agentCommandLine),
                .startAgent(busName: SleepTimers1.appScopedBusName, why: .appStarted),
            ]
        case .agentAppeared:
            agentPresent = true
            startPending = false
            return []
        case .timers(let count):
            // The empty List that follows a vanished agent is not news.
            if agentPresent { timersKnown = count > 0 }
            return []
        case .agentVanished:
            let crashed = agentPresent && timersKnown
            agentPresent = false
            timersKnown = false
            guard sandboxed, crashed, !startPending else { return [] }
            guard restarts < Self.restartLimit else { return [.report(.restartLimitReached(restarts))] }
            restarts += 1
            startPending = true
            return [.startAgent(busName: SleepTimers1.appScopedBusName, why: .agentVanished)]
        case .backgroundAnswered(let allowed, let autostart):
            guard sandboxed else { return [] }
            if !allowed { return [.report(.backgroundRefused)] }
            return [.report(autostart ? .autostartOn : .autostartNotWritten)]
        case .backgroundFailed(let reason):
            guard sandboxed else { return [] }
            return [.report(.portalUnavailable(reason))]
        }
    }
}
