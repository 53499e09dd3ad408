import CDFLGLib
import CDFLLinux
import CDFLNotify
import EventLoop
import Glibc
import SleepTimerCore

/// libnotify on a thread of its own, with its own GLib context: its calls
/// wait for the notification server (up to 25 s each when the server hangs),
/// and that wait must hold up neither a D-Bus reply nor a completion on the
/// agent's loop. libnotify's signals (a click, a close) arrive on this
/// thread's context, since its connection was made here.
///
/// The agent's thread leaves requests in a mailbox and rings; this thread
/// carries them out in order and leaves reports in another mailbox, ringing
/// back. Nothing polls; both threads sleep in poll() between rings.
final class NotificationThread: Sendable {
    private let requests = Mailbox(RequestQueue())
    private let reports: Mailbox<[NotificationReport]>
    private let reportBell: Bell.Ringer
    /// Set once the thread has made its bell.
    private let requestBell = Mailbox<Bell.Ringer?>(nil)

    /// Starts the thread; `reportBell` rings the agent's loop when reports
    /// wait in `reports`. Returns once the thread is ready for requests.
    init(reports: Mailbox<[NotificationReport]>, reportBell: Bell.Ringer) throws(Bell.Failure) {
        self.reports = reports
        self.reportBell = reportBell
        var ready = sem_t()
        sem_init(&ready, 0, 0)
        defer { sem_destroy(&ready) }
        let started = withUnsafeMutablePointer(to: &ready) { readyPointer in
            let start = ThreadStart(self, ready: readyPointer)
            var thread = pthread_t()
            let result = pthread_create(&thread, nil, { argument in
                Unmanaged<ThreadStart>.fromOpaque(argument!).takeRetainedValue().run()
                return nil
            }, Unmanaged.passRetained(start).toOpaque())
            guard result == 0 else {
                Unmanaged.passUnretained(start).release()
                return false
            }
            pthread_detach(thread)
            while sem_wait(readyPointer) != 0 && errno == EINTR {}
            return true
        }
        guard started, requestBell.with({ $0 }) != nil else { throw .noDescriptor(errno: errno) }
    }

    /// Leaves a request for the thread; called on the agent's thread.
    func submit(_ request: NotificationRequest) {
        requests.with { $0.append(request) }
        requestBell.with { $0 }?.ring()
    }

    /// The thread's name, as ps, top and /proc show it.
    static let name = "notifications"

    /// The thread's body: its own loop, libnotify, and the objects.
    fileprivate func serve(ready: UnsafeMutablePointer<sem_t>) {
        dfl_name_thread(Self.name)
        let loop = MainLoop()
        let objects = NotificationObjects { [reports, reportBell] report in
            reports.with { $0.append(report) }
            reportBell.ring()
        }
        notify_init(DesktopNotification.appName)
        let bell: Bell
        do {
            bell = try Bell(on: loop) { [requests] in
                for request in requests.with({ $0.takeAll() }) { objects.perform(request) }
            }
        } catch {
            sem_post(ready)
            return
        }
        requestBell.with { $0 = bell.ringer }
        sem_post(ready)
        loop.run()
    }
}

/// What pthread_create passes to the new thread. Not Sendable, and needs not
/// be: it crosses once, made before pthread_create and read by the new
/// thread alone.
private final class ThreadStart {
    let owner: NotificationThread
    let ready: UnsafeMutablePointer<sem_t>

    init(_ owner: NotificationThread, ready: UnsafeMutablePointer<sem_t>) {
        self.owner = owner
        self.ready = ready
    }

    func run() { owner.serve(ready: ready) }
}

/// The notification objects, on the libnotify thread only: at most one per
/// timer id, each with the epoch it was made for.
private final class NotificationObjects {
    private var objects: [TimerID: (epoch: UInt64, notification: DesktopNotification)] = [:]
    private let report: (NotificationReport) -> Void

    init(report: @escaping (NotificationReport) -> Void) { self.report = report }

    func perform(_ request: NotificationRequest) {
        switch request {
        case .show(let id, let epoch, let content, let replacing):
            show(id, epoch: epoch, content, replacing: replacing)
        case .close(let id, let epoch):
            guard let object = objects[id], object.epoch <= epoch else { return }
            objects[id] = nil
            object.notification.onClosed = nil
            object.notification.close()
        case .drop(let id, let epoch):
            if let object = objects[id], object.epoch <= epoch { objects[id] = nil }
        case .dropAll:
            objects.removeAll()
        }
    }

    private func show(_ id: TimerID, epoch: UInt64, _ content: NotificationContent, replacing: UInt32) {
        let notification: DesktopNotification
        let idBefore: UInt32?
        if let object = objects[id], object.epoch == epoch {
            notification = object.notification
            idBefore = notification.id
            notification.apply(content)
        } else {
            notification = make(id, epoch: epoch, content)
            idBefore = nil
            // After a restart of the agent alone, replace what it showed
            // before instead of adding a second notification.
            if replacing != 0 { notification.id = replacing }
        }
        do {
            try notification.show()
            // An update in place that kept its id tells the agent nothing
            // new: it is not woken for it.
            if notification.id != idBefore { report(.shown(id, epoch: epoch, notificationID: notification.id)) }
        } catch {
            objects[id] = nil
            report(.showFailed(id, epoch: epoch, reason: error.description))
        }
    }

    private func make(_ id: TimerID, epoch: UInt64, _ content: NotificationContent) -> DesktopNotification {
        let notification = DesktopNotification(content)
        notification.onAction = { [report] action, token in
            report(.actionInvoked(id, epoch: epoch, action, activationToken: token))
        }
        notification.onClosed = { [weak self] reason in
            guard let self, self.objects[id]?.epoch == epoch else { return }
            self.objects[id] = nil
            self.report(.closed(id, epoch: epoch, reason: UInt32(clamping: reason)))
        }
        objects[id] = (epoch, notification)
        return notification
    }
}

@available(*, unavailable, message: "The notification objects live on the notifications' thread only.")
extension NotificationObjects: Sendable {}
