import AgentWorkflows
import DFLDBus
import SleepAgent
import SleepTimerCore

/// Carries out the BackgroundStatusMachine inside a Flatpak: the background
/// portal's SetStatus, called when the machine says the line changed. It
/// follows the agent's timers as an observer, and the desktop's clock
/// format through `timeFormatChanged`.
final class BackgroundStatus: AgentObserver {
    private typealias Portal = ExternalInterface.Portal
    private let agent: Agent
    private let connection: BusConnection
    private let timeZones: any TimeZoneResolving
    private var timeFormat: () -> TimeFormat
    private let log: any LogSink
    private var machine = BackgroundStatusMachine()
    /// The last refusal logged, so that a portal without a background
    /// backend is named once, not at every change.
    private var lastRefusal: String?

    init(agent: Agent, connection: BusConnection, timeZones: any TimeZoneResolving,
         timeFormat: @escaping () -> TimeFormat, log: any LogSink)
    {
        self.agent = agent
        self.connection = connection
        self.timeZones = timeZones
        self.timeFormat = timeFormat
        self.log = log
    }

    /// The line for the timers the agent holds at its start.
    func start() { refresh() }

    func timeFormatChanged() { refresh() }

    func timerChanged(_ view: TimerView) { refresh() }
    func timerRemoved(_ id: TimerID, reason: RemovalReason) { refresh() }
    func completionFinished(_ id: TimerID, outcome: CompletionOutcome, activityID: String, sleptMinutes: Int64?) {}
    func propertiesChanged(_ properties: AgentProperties, previous: AgentProperties) {}

    private func refresh() {
        let timers = ((try? agent.list()) ?? []).map(\.stored)
        guard let action = machine.timersChanged(timers, timeZones: timeZones, timeFormat: timeFormat()) else { return }
        switch action {
        case .send(let line): setStatus(line)
        }
    }

    private func setStatus(_ line: String) {
        let call = Message.methodCall(
            destination: Portal.name, path: Portal.path, interface: Portal.backgroundInterface, member: Portal.setStatus
        ).append(.vardict([("message", .string(line))]))
        connection.call(call) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success:
                self.lastRefusal = nil
            case .failure(let error):
                guard error.name != self.lastRefusal else { return }
                self.lastRefusal = error.name
                self.log.log(.warning, "The background portal did not take the status line (\(error.message)); GNOME's Background Apps shows none.")
            }
        }
    }
}

@available(*, unavailable, message: "It is confined to the agent's loop, as its bus connection is.")
extension BackgroundStatus: Sendable {}
