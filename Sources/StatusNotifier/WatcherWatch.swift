import DFLDBus
import PanelIndicator
import SleepTimerCore

/// Follows org.kde.StatusNotifierWatcher on the session bus through the
/// agent's own connection: its arrival, restart and departure come as
/// NameOwnerChanged, and whether a host shows items from its
/// IsStatusNotifierHostRegistered property and its host signals. The match
/// rules name the watcher and those two signals only, so with no panel on
/// the bus (or a quiet one) nothing here ever wakes the agent.
final class WatcherWatch {
    static let name = "org.kde.StatusNotifierWatcher"
    static let path = "/StatusNotifierWatcher"
    static let interface = "org.kde.StatusNotifierWatcher"

    private let connection: BusConnection
    private let log: any LogSink
    /// The watcher as it now is; `newInstance` on the first report of a new owner.
    var onChange: ((_ watcher: PanelIndicator.Watcher, _ newInstance: Bool) -> Void)?
    private(set) var owner: String?
    /// Owner whose first report is still to come (its property is being read).
    private var reportedOwner: String?

    init(connection: BusConnection, log: any LogSink) {
        self.connection = connection
        self.log = log
    }

    func start() {
        do {
            try connection.addMatch(
                "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(Self.name)'")
            for member in ["StatusNotifierHostRegistered", "StatusNotifierHostUnregistered"] {
                try connection.addMatch("type='signal',interface='\(Self.interface)',member='\(member)'")
            }
        } catch {
            log.log(.warning, "Cannot follow the panel's StatusNotifierWatcher: \(error.message)")
        }
        connection.addFilter { [weak self] message in
            guard let self, message.kind == .signal else { return false }
            if message.sender == "org.freedesktop.DBus", message.member == "NameOwnerChanged",
                let arguments = try? message.arguments(), arguments.count == 3, arguments[0].stringValue == Self.name,
                let newOwner = arguments[2].stringValue
            {
                self.ownerChanged(to: newOwner.isEmpty ? nil : newOwner)
            } else if message.interface == Self.interface, let owner = self.owner, message.sender == owner,
                message.member == "StatusNotifierHostRegistered" || message.member == "StatusNotifierHostUnregistered"
            {
                // Another host may still be there after one leaves: ask.
                self.readHostRegistered(of: owner)
            }
            return false
        }
        let question = Message.methodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "GetNameOwner"
        ).append(.string(Self.name))
        connection.call(question) { [weak self] result in
            // NameHasNoOwner: no panel yet; NameOwnerChanged tells when one comes.
            guard let self, self.owner == nil, case .success(let reply) = result,
                let owner = (try? reply.arguments())?.first?.stringValue
            else { return }
            self.ownerChanged(to: owner)
        }
    }

    private func ownerChanged(to newOwner: String?) {
        guard newOwner != owner else { return }
        owner = newOwner
        guard let newOwner else {
            log.log(.info, "The panel's StatusNotifierWatcher went away.")
            reportedOwner = nil
            onChange?(.absent, false)
            return
        }
        log.log(.info, "A StatusNotifierWatcher is on the bus (\(newOwner)).")
        readHostRegistered(of: newOwner)
    }

    /// Reads IsStatusNotifierHostRegistered of `owner` and reports it. A
    /// watcher that cannot say is taken to have a host: it is one.
    private func readHostRegistered(of owner: String) {
        let get = Message.methodCall(
            destination: owner, path: Self.path, interface: "org.freedesktop.DBus.Properties", member: "Get"
        ).append(.string(Self.interface), .string("IsStatusNotifierHostRegistered"))
        connection.call(get) { [weak self] result in
            guard let self, self.owner == owner else { return }
            let registered = (try? result.get().arguments())?.first?.unwrapped.booleanValue ?? true
            let newInstance = self.reportedOwner != owner
            self.reportedOwner = owner
            self.onChange?(.present(hostRegistered: registered), newInstance)
        }
    }
}
