import AgentWorkflows
import SleepTimerCore

/// Where the notification plan's actions are carried out: the desktop's
/// notification server through libnotify on the host, the notification
/// portal inside the Flatpak (NotificationSurfaceRule says which). The
/// surface knows nothing of
/// timers beyond their ids; it reports what the server did.
public protocol NotificationSurface: AnyObject {
    /// Starts following the server; `report` hears of every change.
    func start(reporting report: @escaping (NotificationSurfaceEvent) -> Void)
    /// Posts, or updates in place the one already posted for `id`.
    func show(_ id: TimerID, _ content: NotificationContent, replacing: UInt32)
    func close(_ id: TimerID)
    /// Forgets the notification of `id` without closing it.
    func drop(_ id: TimerID)
    func dropAll()
    /// The moment the surface last asked for (`.wakeAt`) has come, on the
    /// agent's one schedule.
    func wake(now: Instant)
}

/// What the notification server did.
public enum NotificationSurfaceEvent: Sendable, Equatable {
    case serverChanged(NotificationServer?)
    case shown(TimerID, notificationID: UInt32)
    case showFailed(TimerID, reason: String)
    /// The server closed it; the surface has already forgotten it.
    case closed(TimerID, reason: UInt32)
    case actionInvoked(TimerID, NotificationAction, activationToken: String?)
    /// When the surface next needs the loop (to ask the server again after
    /// an error); nil: no longer. The agent's schedule wakes it then, so the
    /// process keeps one timer.
    case wakeAt(Instant?)
}

extension Agent {
    func surfaceReported(_ event: NotificationSurfaceEvent) {
        let now = clock.now()
        switch event {
        case .serverChanged(let server):
            runPlan(.serverChanged(server, timers: timers.values.sorted(by: TimerOrderRule.precedes), now: now))
            publishProperties()
        case .shown(let id, let notificationID):
            runPlan(.shown(id, notificationID: notificationID, now: now))
        case .showFailed(let id, let reason):
            runPlan(.showFailed(id, reason: reason, now: now))
        case .closed(let id, let reason):
            runPlan(.closed(id, reason: reason, now: now))
        case .actionInvoked(let id, let action, let activationToken):
            runPlan(.actionInvoked(id, action, activationToken: activationToken))
        case .wakeAt(let moment):
            setWake(.notificationServer, at: moment)
        }
    }

    /// Hands an event to the plan and carries out what it decides.
    func runPlan(_ event: NotificationPlan.Event) {
        resolveTimeFormatIfNeeded()
        for action in plan.handle(event) { perform(action) }
        setWake(.notifications, at: plan.wakeAt)
    }

    private func perform(_ action: NotificationPlan.Action) {
        switch action {
        case .show(let id, let content, let replacing):
            surface?.show(id, content, replacing: replacing)
        case .close(let id):
            surface?.close(id)
        case .drop(let id):
            surface?.drop(id)
        case .dropAll:
            surface?.dropAll()
        case .saveRecord(let id, let record):
            do {
                try store.setNotification(for: id, record)
            } catch {
                log.log(.warning, "Could not keep the notification state of timer \(id): \(error)")
            }
        case .complete(let id):
            do {
                try complete(id, completedAtMilliseconds: 0)
            } catch {
                log.log(.warning, "Complete from the notification of timer \(id) was refused: \(error.message)")
            }
        case .open(let id, let activationToken):
            open(id, activationToken: activationToken, caller: Self.notificationCaller)
        case .statusChanged(let id):
            announceStatus(of: id)
        case .log(let priority, let message):
            log.log(priority, message)
        }
    }
}
