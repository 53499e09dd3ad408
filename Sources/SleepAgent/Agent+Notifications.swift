import AgentWorkflows
import SleepTimerCore

/// Where the notification machine's actions are carried out: the desktop's
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
    /// Takes away a notification an earlier run of the agent left (the
    /// server's `notificationID`, or the timer's own id on the portal),
    /// and reports `withdrawn` once the server answered.
    func withdraw(_ id: TimerID, notificationID: UInt32)
    /// The moment the surface last asked for (`.wakeAt`) has come, on the
    /// agent's one schedule.
    func wake(now: Instant)
    /// Shows a short notice of no timer's (no Sleep to complete), which
    /// replaces the notice shown before; nothing of it is reported.
    func notice(_ content: NotificationContent)
}

/// The id the surfaces keep the agent's one notice under: the nil UUID,
/// which no platform's timer has.
public let noticeNotificationID = TimerID("00000000-0000-0000-0000-000000000000")!

/// What the notification server did.
public enum NotificationSurfaceEvent: Sendable, Equatable {
    case serverChanged(NotificationServer?)
    case shown(TimerID, notificationID: UInt32)
    case showFailed(TimerID, reason: String)
    /// The server closed it; the surface has already forgotten it.
    case closed(TimerID, reason: UInt32)
    case actionInvoked(TimerID, NotificationAction, activationToken: String?)
    /// The server answered a `withdraw`: the notification is gone.
    case withdrawn(TimerID)
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
            let mirrored = timers.values.sorted(by: TimerOrderRule.precedes)
            runNotifications { $0.serverChanged(server, timers: mirrored, now: now) }
            publishProperties()
        case .withdrawn(let id):
            runNotifications { $0.withdrawn(id) }
        case .shown(let id, let notificationID):
            runNotifications { $0.shown(id, notificationID: notificationID, now: now).map { [$0] } ?? [] }
        case .showFailed(let id, let reason):
            runNotifications { $0.showFailed(id, reason: reason, now: now) }
        case .closed(let id, let reason):
            runNotifications { $0.closed(id, reason: reason, now: now) }
        case .actionInvoked(let id, let action, let activationToken):
            resolveTimeFormatIfNeeded()
            switch notifications.clicked(id, action, activationToken: activationToken) {
            case .complete(let id)?: completeFromNotification(id)
            case .open(let id, let activationToken)?: open(id, activationToken: activationToken, caller: Self.notificationCaller)
            case nil: break
            }
        case .wakeAt(let moment):
            setWake(.notificationServer, at: moment)
        }
    }

    /// A mirrored timer was added or changed: its notification follows.
    func notificationsTimerChanged(_ stored: StoredTimer, now: Instant) {
        runNotifications { $0.timerChanged(stored, now: now) }
    }

    /// A timer left the list: its notification closes, then its record
    /// goes.
    func notificationsTimerRemoved(_ id: TimerID) {
        runNotifications { $0.timerRemoved(id) }
    }

    /// The platform saved the sleep: its notification says so.
    func notificationsSaved(_ id: TimerID, sleptMinutes: Int64, now: Instant) {
        runNotifications { $0.saved(id, sleptMinutes: sleptMinutes, now: now) }
    }

    /// The moment the notification machine asked for has come.
    func notificationsWoke(now: Instant) {
        runNotifications { $0.woke(now: now) }
    }

    /// The clock was set or the machine woke from a suspend: every text is
    /// made again.
    func notificationsClockChanged(now: Instant) {
        runNotifications { $0.clockChanged(now: now) }
    }

    /// New settings for the notifications: every text is made again.
    func notificationsSettingsChanged(_ settings: NotificationMachine.Settings, now: Instant) {
        runNotifications { $0.settingsChanged(settings, now: now) }
    }

    /// Hands an event to the notification machine, carries out what it
    /// decides, one action after the other.
    private func runNotifications(_ event: (inout NotificationMachine) -> [NotificationMachine.Action]) {
        resolveTimeFormatIfNeeded()
        for action in event(&notifications) {
            switch action {
            case .show(let id, let content, let replacing): surface?.show(id, content, replacing: replacing)
            case .close(let id): surface?.close(id)
            case .drop(let id): surface?.drop(id)
            case .dropAll: surface?.dropAll()
            case .saveRecord(let id, let record): saveNotificationRecord(record, of: id)
            case .forgetRecord(let id): forgetNotificationRecord(of: id)
            case .withdraw(let id, let notificationID): surface?.withdraw(id, notificationID: notificationID)
            case .statusChanged(let id): announceStatus(of: id)
            case .log(let priority, let message): log.log(priority, message)
            }
        }
    }

    private func saveNotificationRecord(_ record: NotificationRecord, of id: TimerID) {
        do {
            try store.setNotification(for: id, record)
        } catch {
            log.log(.warning, "Could not keep the notification state of timer \(id): \(error)")
        }
    }

    private func forgetNotificationRecord(of id: TimerID) {
        do {
            try store.removeNotification(for: id)
        } catch {
            log.log(.warning, "Could not forget the notification state of timer \(id): \(error)")
        }
    }

    private func completeFromNotification(_ id: TimerID) {
        do {
            try complete(id, completedAt: nil)
        } catch {
            log.log(.warning, "Complete from the notification of timer \(id) was refused: \(error.message)")
        }
    }
}
