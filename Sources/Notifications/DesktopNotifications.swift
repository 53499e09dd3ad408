import AgentWorkflows
import CDFLNotify
import DFLDBus
import SleepAgent
import SleepTimerCore

/// The agent's notification surface on libnotify: one notification object
/// per timer id, created, updated in place, closed and forgotten as the
/// notification plan commands, and the server's answers (the id it gave,
/// a click, a close) reported back. It decides nothing itself.
public final class DesktopNotifications: NotificationSurface {
    private let watch: NotificationServerWatch
    private var notifications: [TimerID: DesktopNotification] = [:]
    private var report: ((NotificationSurfaceEvent) -> Void)?

    public init(connection: BusConnection, log: any LogSink) {
        watch = NotificationServerWatch(connection: connection, log: log)
    }

    public func start(reporting report: @escaping (NotificationSurfaceEvent) -> Void) {
        self.report = report
        notify_init(DesktopNotification.appName)
        watch.onChange = { server in report(.serverChanged(server)) }
        watch.start()
    }

    public func show(_ id: TimerID, _ content: NotificationContent, replacing: UInt32) {
        let notification: DesktopNotification
        if let existing = notifications[id] {
            notification = existing
            notification.apply(content)
        } else {
            notification = makeNotification(id, content)
            // After a restart of the agent alone, replace what it showed
            // before instead of adding a second notification.
            if replacing != 0 { notification.id = replacing }
        }
        do {
            try notification.show()
            report?(.shown(id, notificationID: notification.id))
        } catch {
            notifications[id] = nil
            report?(.showFailed(id, reason: error.description))
        }
    }

    public func close(_ id: TimerID) {
        guard let notification = notifications.removeValue(forKey: id) else { return }
        notification.onClosed = nil
        notification.close()
    }

    public func drop(_ id: TimerID) {
        notifications[id] = nil
    }

    public func dropAll() {
        notifications.removeAll()
    }

    private func makeNotification(_ id: TimerID, _ content: NotificationContent) -> DesktopNotification {
        let notification = DesktopNotification(content)
        notification.onAction = { [weak self] action, token in
            self?.report?(.actionInvoked(id, action, activationToken: token))
        }
        notification.onClosed = { [weak self, weak notification] reason in
            // Only the notification that is current for the id reports:
            // one forgotten since has nothing more to say.
            guard let self, let notification, self.notifications[id] === notification else { return }
            self.notifications[id] = nil
            self.report?(.closed(id, reason: UInt32(clamping: reason)))
        }
        notifications[id] = notification
        return notification
    }
}

@available(*, unavailable, message: "libnotify's objects are confined to the main loop's thread.")
extension DesktopNotifications: Sendable {}
