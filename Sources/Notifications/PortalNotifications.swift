import AgentWorkflows
import DFLDBus
import SleepAgent
import SleepTimerCore

/// The agent's notification surface inside a Flatpak: the notification
/// portal, called directly on the agent's loop. libnotify's own portal
/// path is not used: it drops every update's id (Remove, then Add), and
/// makes Complete a non-exported action, for which every backend also
/// activates the app, opening its window. Here Open and Complete are the
/// app's exported actions, with the timer's id as target: the portal
/// D-Bus-activates the app with ActivateAction, and the app hands Complete
/// to the agent.
///
/// What it reports is what the portal says: the portal as the server
/// (its presence on the bus and its version), a notification shown when
/// AddNotification is answered. The portal gives no numeric id (the
/// timer's id is the notification's, so an update replaces it) and no
/// close: nothing is reported closed, and the machine's own closes (a
/// farewell gone by, a timer removed) are RemoveNotification.
public final class PortalNotifications: NotificationSurface {
    private typealias Portal = ExternalInterface.Portal
    private let connection: BusConnection
    private let log: any LogSink
    private var report: ((NotificationSurfaceEvent) -> Void)?
    /// The epoch of what was last sent for each id; none once closed or
    /// forgotten, so that a late answer about it is dropped.
    private var current: [TimerID: UInt64] = [:]
    private var lastEpoch: UInt64 = 0
    /// The portal's unique name while it answers.
    private var owner: String?
    /// Which question about the portal's version is the latest: an older
    /// answer is stale.
    private var lastQuestion: UInt64 = 0

    public init(connection: BusConnection, log: any LogSink) {
        self.connection = connection
        self.log = log
    }

    public func start(reporting report: @escaping (NotificationSurfaceEvent) -> Void) {
        self.report = report
        do {
            try connection.addMatch(StandardInterface.Bus.ownerChangedMatch(of: Portal.name))
        } catch {
            log.log(.warning, "Cannot follow the portal on the bus: \(error.message)")
        }
        connection.addSignalFilter { [weak self] message in
            guard let self, message.kind == .signal, message.sender == StandardInterface.Bus.name,
                message.member == StandardInterface.Bus.nameOwnerChanged, let arguments = try? message.arguments(),
                arguments.count == 3, arguments[0].stringValue == Portal.name, let newOwner = arguments[2].stringValue
            else { return false }
            if newOwner.isEmpty {
                self.lost("The notification portal left the bus")
            } else {
                self.askVersion()
            }
            return false
        }
        // Asked at the well-known name, so that the bus starts the portal
        // if it is not running yet.
        askVersion()
    }

    public func show(_ id: TimerID, _ content: NotificationContent, replacing: UInt32) {
        lastEpoch += 1
        let epoch = lastEpoch
        current[id] = epoch
        let call = Message.methodCall(
            destination: Portal.name, path: Portal.path, interface: Portal.notificationInterface,
            member: Portal.addNotification
        ).append(.string(PortalNotification.id(of: id)), PortalNotification.properties(of: id, content))
        connection.call(call) { [weak self] result in
            guard let self, self.current[id] == epoch else { return }
            switch result {
            case .success:
                self.report?(.shown(id, notificationID: 0))
            case .failure(let error):
                self.current[id] = nil
                self.report?(.showFailed(id, reason: error.message))
            }
        }
    }

    public func close(_ id: TimerID) {
        guard current.removeValue(forKey: id) != nil else { return }
        let call = Message.methodCall(
            destination: Portal.name, path: Portal.path, interface: Portal.notificationInterface,
            member: Portal.removeNotification
        ).append(.string(PortalNotification.id(of: id)))
        connection.call(call) { [log] result in
            if case .failure(let error) = result {
                log.log(.warning, "The portal did not remove the notification of timer \(id): \(error.message)")
            }
        }
    }

    public func drop(_ id: TimerID) {
        current[id] = nil
    }

    /// RemoveNotification of the timer's id, which an earlier run used; the
    /// portal answers alike whether or not the desktop still showed it, so
    /// any answer is a withdrawal. No answer (no portal) leaves the record
    /// for the next start.
    public func withdraw(_ id: TimerID, notificationID: UInt32) {
        let call = Message.methodCall(
            destination: Portal.name, path: Portal.path, interface: Portal.notificationInterface,
            member: Portal.removeNotification
        ).append(.string(PortalNotification.id(of: id)))
        connection.call(call) { [weak self] result in
            guard let self, self.current[id] == nil else { return }
            switch result {
            case .success:
                self.report?(.withdrawn(id))
            case .failure(let error):
                self.log.log(.warning, "The portal did not take away the notification of timer \(id): \(error.message)")
            }
        }
    }

    public func dropAll() {
        current.removeAll()
    }

    /// The notice under its own id, which a second notice replaces; the
    /// portal gives no timeout, so it stays in the desktop's list until
    /// the person dismisses it. A failure is logged, nothing reported.
    public func notice(_ content: NotificationContent) {
        let call = Message.methodCall(
            destination: Portal.name, path: Portal.path, interface: Portal.notificationInterface,
            member: Portal.addNotification
        ).append(.string(PortalNotification.noticeID), PortalNotification.properties(of: noticeNotificationID, content))
        connection.call(call) { [log] result in
            if case .failure(let error) = result {
                log.log(.warning, "The portal did not show the notice that no Sleep is running: \(error.message)")
            }
        }
    }

    /// The portal is asked nothing again: it never asks for a wake.
    public func wake(now: Instant) {}

    /// The portal's Notification version, at its well-known name: an
    /// answer makes the replier the server; an error (no such interface,
    /// no portal) leaves none.
    private func askVersion() {
        lastQuestion += 1
        let question = lastQuestion
        let call = Message.methodCall(
            destination: Portal.name, path: Portal.path, interface: StandardInterface.Properties.name,
            member: StandardInterface.Properties.get
        ).append(.string(Portal.notificationInterface), .string(Portal.versionProperty))
        connection.call(call) { [weak self] result in
            guard let self, question == self.lastQuestion else { return }
            switch result {
            case .success(let reply):
                guard let sender = reply.sender, let version = (try? reply.arguments())?.first?.unwrapped.uint32Value
                else {
                    self.lost("The notification portal's version could not be read")
                    return
                }
                self.owner = sender
                self.log.log(.info, "Notifications go through the notification portal, version \(version).")
                self.report?(.serverChanged(.portal(owner: sender, version: version)))
            case .failure(let error):
                self.lost("The notification portal does not answer (\(error.message))")
            }
        }
    }

    /// Says so when the portal that answered is gone (and at the start,
    /// when none answers); the notification machine already holds no
    /// server otherwise.
    private func lost(_ why: String) {
        let answered = owner != nil
        owner = nil
        guard answered || lastQuestion == 1 else { return }
        log.log(.warning, "\(why); no notification is shown until it comes back.")
        if answered { report?(.serverChanged(nil)) }
    }
}

/// What an AddNotification carries for a timer, as a value: the message the
/// portal passes to the desktop.
enum PortalNotification {
    /// The portal's id of a timer's notification: the timer's id, so that
    /// each update replaces the one shown.
    static func id(of timer: TimerID) -> String { timer.string }

    /// The portal's id of the agent's notice (no Sleep running).
    static let noticeID = "no-sleep-running"

    /// The `a{sv}` of version 1 of the interface: title, body, icon,
    /// priority, the body's default action and the buttons, each action the
    /// app's exported one with the timer's id as target. Nothing else: no
    /// key of a later version, which a version-1 portal refuses.
    static func properties(of timer: TimerID, _ content: NotificationContent) -> BusValue {
        let target = BusValue.string(timer.string)
        var entries: [(String, BusValue)] = [
            ("title", .string(content.summary)),
            ("body", .string(content.body)),
            // GIcon's serialized form of a themed icon.
            ("icon", .structure([.string("themed"), .variant(.strings([NotificationContent.appIcon]))])),
            ("priority", .string(content.urgency == .low ? "low" : "normal")),
        ]
        var buttons: [BusValue] = []
        for action in content.actions {
            let exported = exportedAction(action).exported
            switch action {
            case .open:
                entries += [("default-action", .string(exported)), ("default-action-target", target)]
            case .openButton, .complete:
                buttons.append(.vardict([("label", .string(action.label)), ("action", .string(exported)), ("target", target)]))
            }
        }
        if !buttons.isEmpty { entries.append(("buttons", .array(elementSignature: "a{sv}", buttons))) }
        return .vardict(entries)
    }

    /// The app's action that does what the notification's action does.
    static func exportedAction(_ action: NotificationAction) -> AppActionName {
        switch action {
        case .open, .openButton: return .openTimer
        case .complete: return .completeTimer
        }
    }
}

@available(*, unavailable, message: "The surface is confined to the agent's loop, as its bus connection is.")
extension PortalNotifications: Sendable {}
