import DFLDBus
import EventLoop
import Glibc
import PanelIndicator
import SleepAgent
import SleepTimerCore

/// The panel indicator wired to today's agent: it follows the agent's
/// changes as an observer, turns them into the indicator's timer values,
/// and sends the menu's clicks down the same agent paths as the
/// notification's buttons (Agent.complete into the outbox, Agent.open).
///
/// Two loop timers live here for now and belong on the agent's one shared
/// schedule: the minute refresh of the tooltip (`minuteTick`), and the end
/// of a saved sleep's moment in the menu (`farewells`).
public final class IndicatorAgentObserver: AgentObserver {
    /// How long "Maya's sleep saved · 1 h 37 min" stays in the menu: as
    /// long as the notification's "Sleep saved" at most stays (its 6 s
    /// timeout, and 4 s for a server that ignores it).
    static let savedMilliseconds: UInt32 = 10_000

    public let indicator: StatusNotifierIndicator
    private let agent: Agent
    private let loop: MainLoop
    private let clock: any WallClock
    private let log: any LogSink
    private let opener: DeepLinkOpener
    private var timers: [TimerID: IndicatorTimer] = [:]
    private var farewells: [TimerID: MainLoop.Source] = [:]
    private var minuteTick: (source: MainLoop.Source, at: Instant)?

    public init(
        agent: Agent, connection: BusConnection, loop: MainLoop, opener: DeepLinkOpener, clock: any WallClock,
        log: any LogSink
    ) {
        self.agent = agent
        self.loop = loop
        self.clock = clock
        self.log = log
        self.opener = opener
        indicator = StatusNotifierIndicator(
            visibility: agent.configuration.indicator, connection: connection, processID: getpid(), clock: clock,
            log: log)
    }

    /// Pending wake-ups go with the observer: the loop may outlive it.
    deinit {
        minuteTick?.source.cancel()
        for farewell in farewells.values { farewell.cancel() }
    }

    public func start() {
        indicator.onComplete = { [weak self] id in self?.complete(id) }
        indicator.onOpen = { [weak self] id, token in self?.agent.open(id, activationToken: token) }
        indicator.onOpenApp = { [weak self] token in
            guard let self else { return }
            self.opener.open(DeepLink(appHomeAt: self.agent.configuration.deepLinkBase), activationToken: token)
        }
        indicator.onScheduleChanged = { [weak self] in self?.scheduleMinuteTick() }
        for view in (try? agent.list()) ?? [] { timers[view.timer.id] = value(of: view) }
        indicator.start()
        indicator.timersChanged(Array(timers.values))
    }

    /// As the notification's Complete button: recorded in the outbox, sent
    /// by the completion sender, exactly once.
    private func complete(_ id: TimerID) {
        do {
            _ = try agent.complete(id.string, completedAtMilliseconds: 0)
        } catch {
            log.log(.notice, "Complete from the panel indicator of timer \(id) was refused: \(error.message)")
        }
    }

    // MARK: AgentObserver

    public func timerChanged(_ view: TimerView) {
        farewells.removeValue(forKey: view.timer.id)?.cancel()
        timers[view.timer.id] = value(of: view)
        indicator.timersChanged(Array(timers.values))
    }

    public func timerRemoved(_ id: TimerID, reason: RemovalReason) {
        // A saved sleep stays for its moment; the farewell removes it.
        if case .saved? = timers[id]?.phase, farewells[id] != nil { return }
        guard timers.removeValue(forKey: id) != nil else { return }
        indicator.timersChanged(Array(timers.values))
    }

    public func completionFinished(_ id: TimerID, outcome: CompletionOutcome, activityID: String, sleptMinutes: Int64?) {
        guard outcome == .created, let minutes = sleptMinutes, let timer = timers[id] else { return }
        timers[id] = IndicatorTimer(id: id, babyName: timer.babyName, startedAt: timer.startedAt, phase: .saved(minutes: minutes))
        farewells[id]?.cancel()
        farewells[id] = loop.after(milliseconds: Self.savedMilliseconds) { [weak self] in
            guard let self else { return .remove }
            self.farewells[id] = nil
            if case .saved? = self.timers[id]?.phase {
                self.timers[id] = nil
                self.indicator.timersChanged(Array(self.timers.values))
            }
            return .remove
        }
        indicator.timersChanged(Array(timers.values))
    }

    public func propertiesChanged(_ properties: AgentProperties, previous: AgentProperties) {}

    private func value(of view: TimerView) -> IndicatorTimer {
        let phase: IndicatorTimer.Phase
        switch view.stored.state {
        case .running: phase = .running(canComplete: view.canComplete)
        case .saving: phase = .saving(waitingForNetwork: agent.completionIsWaiting(view.timer.id))
        case .saveFailed, .needsApp: phase = .failed
        }
        return IndicatorTimer(id: view.timer.id, babyName: view.timer.babyName, startedAt: view.timer.startedAt, phase: phase)
    }

    // MARK: Minute refreshes (to be moved onto the shared schedule)

    /// A loop timer for the indicator's next minute boundary, set only
    /// while the indicator wants refreshes (a host shows it and a timer
    /// runs), moved only when that boundary moves.
    private func scheduleMinuteTick() {
        let now = clock.now()
        let next = indicator.nextMinuteBoundary(after: now)
        guard next != minuteTick?.at else { return }
        minuteTick?.source.cancel()
        minuteTick = nil
        guard let next else { return }
        let wait = UInt32(clamping: max(0, next.milliseconds(since: now)))
        let source = loop.after(milliseconds: wait) { [weak self] in
            self?.minuteTick = nil
            self?.indicator.minuteBoundary()
            return .remove
        }
        minuteTick = (source, next)
    }
}
