import AgentWorkflows
import DFLDBus
import EventLoop
import SleepAgent
import SleepTimerCore

/// The agent's notification surface: one notification per timer id,
/// created, updated in place, closed and forgotten as the notification
/// machine commands, and the server's answers (the id it gave, a click, a close)
/// reported back. It decides nothing itself.
///
/// libnotify runs on a thread of its own (NotificationThread), so that a
/// server that stops answering never holds up the agent's loop; this side,
/// on the loop, follows the server on the bus and knows which object is
/// current for each id, so that news of one forgotten since is dropped.
public final class DesktopNotifications: NotificationSurface {
    private let watch: NotificationServerWatch
    private let connection: BusConnection
    private let loop: MainLoop
    private let log: any LogSink
    private var thread: NotificationThread?
    private var reportBell: Bell?
    private let reports = Mailbox<[NotificationReport]>([])
    private var report: ((NotificationSurfaceEvent) -> Void)?
    /// The epoch of the object current for each id; none when there is no
    /// object (never shown, closed, or forgotten).
    private var current: [TimerID: UInt64] = [:]
    private var lastEpoch: UInt64 = 0

    public init(connection: BusConnection, loop: MainLoop, clock: any WallClock, log: any LogSink) {
        watch = NotificationServerWatch(connection: connection, clock: clock, log: log)
        self.connection = connection
        self.loop = loop
        self.log = log
    }

    public func start(reporting report: @escaping (NotificationSurfaceEvent) -> Void) {
        self.report = report
        do {
            let bell = try Bell(on: loop) { [weak self] in self?.takeReports() }
            thread = try NotificationThread(reports: reports, reportBell: bell.ringer)
            reportBell = bell
        } catch {
            log.log(.error, "Could not start the notifications' thread (\(error)); no notification will be shown.")
            return
        }
        watch.onChange = { server in report(.serverChanged(server)) }
        watch.onWakeAt = { moment in report(.wakeAt(moment)) }
        watch.start()
    }

    public func wake(now: Instant) {
        watch.wake(now: now)
    }

    public func show(_ id: TimerID, _ content: NotificationContent, replacing: UInt32) {
        let epoch: UInt64
        if let existing = current[id] {
            epoch = existing
        } else {
            lastEpoch += 1
            epoch = lastEpoch
            current[id] = epoch
        }
        thread?.submit(.show(id, epoch: epoch, content, replacing: replacing))
    }

    public func close(_ id: TimerID) {
        guard let epoch = current.removeValue(forKey: id) else { return }
        thread?.submit(.close(id, epoch: epoch))
    }

    public func drop(_ id: TimerID) {
        guard let epoch = current.removeValue(forKey: id) else { return }
        thread?.submit(.drop(id, epoch: epoch))
    }

    /// CloseNotification of an id an earlier run of the agent was given,
    /// on the agent's own connection: libnotify closes only objects it
    /// made. Only a reply is a withdrawal; an error leaves the record for
    /// the next start.
    public func withdraw(_ id: TimerID, notificationID: UInt32) {
        typealias Server = ExternalInterface.Notifications
        let call = Message.methodCall(
            destination: Server.name, path: Server.path, interface: Server.interface, member: Server.closeNotification
        ).append(.uint32(notificationID))
        connection.call(call) { [weak self] result in
            guard let self, self.current[id] == nil else { return }
            switch result {
            case .success:
                self.report?(.withdrawn(id))
            case .failure(let error):
                self.log.log(.warning, "The server did not close the notification left for timer \(id): \(error.message)")
            }
        }
    }

    public func dropAll() {
        current.removeAll()
        thread?.submit(.dropAll)
    }

    /// The notice goes through the thread as a timer's notification would,
    /// under its own id, which the notification machine never sees: a
    /// second notice updates the first in place, and what the server says
    /// of it stays here.
    public func notice(_ content: NotificationContent) {
        show(noticeNotificationID, content, replacing: 0)
    }

    /// Passes on what the thread reported about current objects only.
    private func takeReports() {
        for news in reports.with({ reports in defer { reports = [] }; return reports }) {
            if takeNoticeReport(news) { continue }
            switch news {
            case .shown(let id, let epoch, let notificationID):
                guard current[id] == epoch else { continue }
                report?(.shown(id, notificationID: notificationID))
            case .showFailed(let id, let epoch, let reason):
                guard current[id] == epoch else { continue }
                current[id] = nil
                report?(.showFailed(id, reason: reason))
            case .closed(let id, let epoch, let reason):
                guard current[id] == epoch else { continue }
                current[id] = nil
                report?(.closed(id, reason: reason))
            case .actionInvoked(let id, let epoch, let action, let activationToken):
                guard current[id] == epoch else { continue }
                report?(.actionInvoked(id, action, activationToken: activationToken))
            }
        }
    }
}

extension DesktopNotifications {
    /// What the server said of the notice: a failure is logged, a close
    /// forgets it; nothing reaches the agent.
    private func takeNoticeReport(_ news: NotificationReport) -> Bool {
        switch news {
        case .shown(let id, _, _), .actionInvoked(let id, _, _, _):
            return id == noticeNotificationID
        case .showFailed(let id, let epoch, let reason):
            guard id == noticeNotificationID else { return false }
            if current[id] == epoch { current[id] = nil }
            log.log(.warning, "The server did not show the notice that no Sleep is running: \(reason)")
            return true
        case .closed(let id, let epoch, _):
            guard id == noticeNotificationID else { return false }
            if current[id] == epoch { current[id] = nil }
            return true
        }
    }
}

@available(*, unavailable, message: "The surface is confined to the agent's loop; libnotify has its own thread.")
extension DesktopNotifications: Sendable {}
