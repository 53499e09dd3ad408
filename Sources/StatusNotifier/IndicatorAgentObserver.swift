import DFLDBus
import Glibc
import PanelIndicator
import SleepAgent
import SleepTimerCore

/// The panel indicator wired to the agent through its ports: it follows the
/// agent's changes as an observer (PanelSurface), turns them into the
/// indicator's timer values, and sends the menu's clicks down the same agent
/// paths as the notification's buttons (PanelHost: complete into the
/// outbox, open). It owns no timer:
/// its minute refreshes and the end of a saved moment are wake-ups on the
/// agent's one schedule, so that one wake-up per minute boundary serves the
/// notifications and the indicator together.
public final class IndicatorAgentObserver: PanelSurface {
    public let indicator: StatusNotifierIndicator
    private let agent: any PanelHost
    private let clock: any WallClock
    private let log: any LogSink
    private var shown = IndicatorTimersMachine()
    private let appActions: AppActions
    /// The app on the bus: while it runs, the menu can quit it.
    private let appWatch: NameOwnerWatch
    public var wakeAtChanged: (() -> Void)?
    /// A click's caller as a person counts callers (its process).
    private let callers: CallerProcesses?

    /// `callers` nil: each connection is its own caller.
    public init(
        agent: any PanelHost, connection: BusConnection, registration: PanelRegistrationRule.Registration,
        clock: any WallClock, log: any LogSink, callers: CallerProcesses? = nil
    ) {
        self.callers = callers
        self.agent = agent
        self.clock = clock
        self.log = log
        appActions = AppActions(connection: connection, log: log)
        appWatch = NameOwnerWatch(name: AppActions.busName, connection: connection)
        indicator = StatusNotifierIndicator(
            visibility: agent.configuration.indicator, connection: connection, registration: registration, clock: clock,
            log: log)
    }

    public func start() {
        indicator.onComplete = { [weak self] id in self?.complete(id) }
        indicator.onOpen = { [weak self] id, token, connection in
            self?.identify(connection) { caller in self?.agent.open(id, activationToken: token, caller: caller) }
        }
        indicator.onOpenApp = { [weak self] token, connection in
            self?.identify(connection) { caller in self?.agent.openApp(activationToken: token, caller: caller) }
        }
        indicator.onQuitApp = { [weak self] in self?.appActions.activate(.quit) }
        indicator.onScheduleChanged = { [weak self] in self?.wakeAtChanged?() }
        for view in (try? agent.list()) ?? [] { _ = shown.timerChanged(Self.value(of: view)) }
        indicator.start()
        indicator.timersChanged(shown.timers)
        appWatch.onOwnerChanged = { [weak self] owner in self?.indicator.appRunningChanged(owner != nil) }
        do {
            try appWatch.start()
        } catch {
            log.log(.notice, "The panel indicator cannot follow the app on the bus: \(error.message)")
        }
    }

    /// Runs `body` with the caller of a click from `connection`.
    private func identify(_ connection: String, _ body: @escaping (String) -> Void) {
        guard let callers else { return body(connection) }
        callers.identify(connection, body)
    }

    /// As the notification's Complete button: recorded in the outbox, sent
    /// by the completion machine, exactly once.
    private func complete(_ id: TimerID) {
        do {
            try agent.complete(id, completedAt: nil)
        } catch {
            log.log(.notice, "Complete from the panel indicator of timer \(id) was refused: \(error.message)")
        }
    }

    // MARK: The agent's schedule

    public var wakeAt: Instant? {
        [indicator.nextMinuteBoundary(after: clock.now()), shown.nextMomentEnd].compactMap { $0 }.min()
    }

    public func wake(now: Instant) {
        if let timers = shown.woke(now: now) {
            indicator.timersChanged(timers)
        } else {
            indicator.minuteBoundary()
        }
    }

    // MARK: AgentObserver

    public func timerChanged(_ view: TimerView) {
        indicator.timersChanged(shown.timerChanged(Self.value(of: view)))
    }

    public func timerRemoved(_ id: TimerID, reason: RemovalReason) {
        if let timers = shown.timerRemoved(id) { indicator.timersChanged(timers) }
    }

    public func completionFinished(_ id: TimerID, outcome: CompletionOutcome, activityID: String, sleptMinutes: Int64?) {
        guard outcome == .created, let minutes = sleptMinutes else { return }
        if let timers = shown.sleepSaved(id, minutes: minutes, now: clock.now()) { indicator.timersChanged(timers) }
    }

    public func propertiesChanged(_ properties: AgentProperties, previous: AgentProperties) {}

    static func value(of view: TimerView) -> IndicatorTimer {
        let phase = TimerPhase(state: view.state, canComplete: view.canComplete, completionAttempts: view.stored.completionAttempts)
        return IndicatorTimer(id: view.timer.id, babyName: view.timer.babyName, startedAt: view.timer.startedAt, phase: phase)
    }
}

@available(*, unavailable, message: "The indicator is confined to the agent's loop.")
extension IndicatorAgentObserver: Sendable {}
