import SleepAgent
import SleepTimerCore

/// Tells the service manager what the agent holds, in a STATUS= line, when
/// that changes: `systemctl --user status` shows it.
final class ServiceStatus: AgentObserver {
    private let systemd: SystemdNotify

    init(systemd: SystemdNotify) { self.systemd = systemd }

    /// The STATUS= line for what the agent holds.
    static func line(_ properties: AgentProperties) -> String {
        "STATUS=" + StatusText.summary(
            timers: Int(properties.runningCount), waitingCompletions: Int(properties.pendingCompletions))
    }

    func timerChanged(_ view: TimerView) {}
    func timerRemoved(_ id: TimerID, reason: RemovalReason) {}
    func completionFinished(_ id: TimerID, outcome: CompletionOutcome, activityID: String, sleptMinutes: Int64?) {}

    func propertiesChanged(_ properties: AgentProperties, previous: AgentProperties) {
        guard properties.runningCount != previous.runningCount || properties.pendingCompletions != previous.pendingCompletions
        else { return }
        systemd.send(Self.line(properties))
    }
}

/// Hears the agent on its loop thread only: the compiler keeps it there.
@available(*, unavailable)
extension ServiceStatus: Sendable {}
