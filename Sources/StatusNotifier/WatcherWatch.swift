import DFLDBus
import PanelIndicator
import SleepTimerCore

/// Follows org.kde.StatusNotifierWatcher on the session bus through the
/// agent's own connection: its arrival, restart and departure come as
/// NameOwnerChanged, and whether a host shows items from its
/// IsStatusNotifierHostRegistered property and its host signals. The match
/// rules name the watcher and those two signals only, so with no panel on
/// the bus (or a quiet one) nothing here ever wakes the agent.
///
/// Not Sendable: its filter and replies run on the agent's loop thread.
final class WatcherWatch {
    typealias Watcher = ExternalInterface.StatusNotifierWatcher
    private typealias Bus = StandardInterface.Bus

    private let connection: BusConnection
    private let log: any LogSink
    /// The watcher as it now is; `newInstance` on the first report of a new owner.
    var onChange: ((_ watcher: PanelItemMachine.Watcher, _ newInstance: Bool) -> Void)?
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
                Bus.ownerChangedMatch(of: Watcher.name))
            for member in [Watcher.hostRegistered, Watcher.hostUnregistered] {
                try connection.addMatch("type='signal',interface='\(Watcher.interface)',member='\(member)'")
            }
        } catch {
            log.log(.warning, "Cannot follow the panel's StatusNotifierWatcher: \(error.message)")
        }
        connection.addSignalFilter { [weak self] message in
            guard let self, message.kind == .signal else { return false }
            if message.sender == Bus.name, message.member == Bus.nameOwnerChanged,
                let arguments = try? message.arguments(), arguments.count == 3, arguments[0].stringValue == Watcher.name,
                let newOwner = arguments[2].stringValue
            {
                self.ownerChanged(to: newOwner.isEmpty ? nil : newOwner)
            } else if message.interface == Watcher.interface, let owner = self.owner, message.sender == owner,
                message.member == Watcher.hostRegistered || message.member == Watcher.hostUnregistered
            {
                // Another host may still be there after one leaves: ask.
                self.readHostRegistered(of: owner)
            }
            return false
        }
        let question = Message.methodCall(
            destination: Bus.name, path: Bus.path, interface: Bus.name, member: Bus.getNameOwner
        ).append(.string(Watcher.name))
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
            destination: owner, path: Watcher.path, interface: StandardInterface.Properties.name,
            member: StandardInterface.Properties.get
        ).append(.string(Watcher.interface), .string(Watcher.isHostRegistered))
        connection.call(get) { [weak self] result in
            guard let self, self.owner == owner else { return }
            let registered = (try? result.get().arguments())?.first?.unwrapped.booleanValue ?? true
            let newInstance = self.reportedOwner != owner
            self.reportedOwner = owner
            self.onChange?(.present(hostRegistered: registered), newInstance)
        }
    }
}

/// Follows the bus on the agent's loop thread only: the compiler keeps it there.
@available(*, unavailable)
extension WatcherWatch: Sendable {}
