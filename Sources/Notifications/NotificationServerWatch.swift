import AgentWorkflows
import DFLDBus
import SleepTimerCore

/// Follows who owns org.freedesktop.Notifications on the session bus, and
/// what that server can do, through the agent's own bus connection: the
/// owner's arrival, restart and departure come as NameOwnerChanged, and its
/// capabilities are asked for without blocking the loop.
final class NotificationServerWatch {
    static let name = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"

    private let connection: BusConnection
    private let log: any LogSink
    /// Called with the new server (nil when there is none) after every change.
    var onChange: ((NotificationServer?) -> Void)?
    private(set) var current: NotificationServer?
    /// The owner whose capabilities are being asked for; answers about an
    /// owner that has gone since are dropped.
    private var pendingOwner: String?

    init(connection: BusConnection, log: any LogSink) {
        self.connection = connection
        self.log = log
    }

    func start() {
        do {
            try connection.addMatch(
                "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(Self.name)'")
        } catch {
            log.log(.warning, "Cannot follow the notification server: \(error.message)")
        }
        connection.addFilter { [weak self] message in
            guard let self, message.kind == .signal, message.sender == "org.freedesktop.DBus",
                message.member == "NameOwnerChanged", let arguments = try? message.arguments(), arguments.count == 3,
                arguments[0].stringValue == Self.name, let newOwner = arguments[2].stringValue
            else { return false }
            self.ownerChanged(to: newOwner.isEmpty ? nil : newOwner)
            return false
        }
        let question = Message.methodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "GetNameOwner"
        ).append(.string(Self.name))
        connection.call(question) { [weak self] result in
            // NameHasNoOwner: no server yet; NameOwnerChanged tells when one comes.
            guard let self, self.pendingOwner == nil, self.current == nil,
                case .success(let reply) = result, let owner = (try? reply.arguments())?.first?.stringValue
            else { return }
            self.ownerChanged(to: owner)
        }
    }

    private func ownerChanged(to owner: String?) {
        guard owner != current?.owner || owner == nil else { return }
        guard let owner else {
            pendingOwner = nil
            if current != nil {
                log.log(.notice, "The notification server went away.")
                current = nil
                onChange?(nil)
            }
            return
        }
        pendingOwner = owner
        var capabilities: [String]?
        var information: (String, String)?
        func finish() {
            guard pendingOwner == owner, let capabilities, let information else { return }
            pendingOwner = nil
            let server = NotificationServer(
                owner: owner, displayName: "\(information.0) \(information.1)".trimmingSpaces(),
                traits: NotificationServerTraits(capabilities: capabilities, serverName: information.0))
            log.log(.info, "Notification server: \(server.displayName) (\(owner)), capabilities: \(capabilities.joined(separator: " ")).")
            current = server
            onChange?(server)
        }
        connection.call(Message.methodCall(destination: owner, path: Self.path, interface: Self.name, member: "GetCapabilities")) {
            result in
            capabilities = (try? result.get().arguments())?.first?.arrayElements?.compactMap(\.stringValue) ?? []
            finish()
        }
        connection.call(Message.methodCall(destination: owner, path: Self.path, interface: Self.name, member: "GetServerInformation")) {
            result in
            let fields = (try? result.get().arguments())?.compactMap(\.stringValue) ?? []
            information = (fields.first ?? "unknown", fields.count > 2 ? fields[2] : "")
            finish()
        }
    }
}

extension String {
    func trimmingSpaces() -> String {
        var text = Substring(self)
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}

@available(*, unavailable, message: "The watch is confined to the agent's loop, as its bus connection is.")
extension NotificationServerWatch: Sendable {}
