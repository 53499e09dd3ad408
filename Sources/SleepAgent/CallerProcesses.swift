import BusNames
import DFLDBus
import SleepTimerCore

/// The caller of each bus call as a person counts callers, its process, so
/// that every limit on what a caller can make the agent do (opens, logged
/// refusals) holds for a process however many connections it opens.
/// CallerIdentityMachine decides; this asks the bus daemon
/// (GetConnectionUnixProcessID, once per connection, asynchronously: the
/// agent's handlers never block) and follows connections leaving the bus.
public final class CallerProcesses {
    private typealias Bus = StandardInterface.Bus
    private let connection: BusConnection
    private var machine = CallerIdentityMachine(settings: .bus)
    /// The calls of each connection waiting for its answer.
    private var waiting: [String: [(String) -> Void]] = [:]
    private var filter: BusConnection.Filter?
    /// A call dropped because too many waited: the unidentified caller's
    /// refusal.
    public var onDropped: () -> Void = {}

    public init(connection: BusConnection) {
        self.connection = connection
    }

    deinit {
        if let filter { connection.removeSignalFilter(filter) }
    }

    /// Follows the connections that leave the bus, so that a caller kept is
    /// forgotten with its connection.
    public func start() throws(BusError) {
        guard filter == nil else { return }
        try connection.addMatch(Bus.ownerChangedMatch)
        // Never consumes the signal: the name watches see it too.
        filter = connection.addSignalFilter { [weak self] message in
            guard let self, message.sender == Bus.name, message.member == Bus.nameOwnerChanged,
                  let arguments = try? message.arguments(), arguments.count == 3,
                  let name = arguments[0].stringValue, name.hasPrefix(":"), arguments[2].stringValue == ""
            else { return false }
            self.machine.left(name)
            return false
        }
    }

    /// Runs `body` with the caller of a call from `sender` (its unique
    /// name): at once when its process is known, else once the bus daemon
    /// has answered, in the order the calls came.
    public func identify(_ sender: String?, _ body: @escaping (String) -> Void) {
        guard let sender else { return body(CallerIdentityMachine.unidentified) }
        switch machine.called(by: sender) {
        case .identified(let caller):
            body(caller)
        case .drop:
            onDropped()
        case .wait:
            waiting[sender, default: []].append(body)
        case .ask:
            waiting[sender] = [body]
            let question = Message.methodCall(destination: Bus.name, path: Bus.path, interface: Bus.name,
                                              member: Bus.getConnectionUnixProcessID).append(.string(sender))
            connection.call(question) { [weak self] result in
                guard let self else { return }
                let processID = (try? result.get().arguments())?.first?.uint32Value
                let answered = self.machine.answered(for: sender, processID: processID)
                for body in self.waiting.removeValue(forKey: sender) ?? [] { body(answered.caller) }
            }
        }
    }
}

/// Bound to its connection's loop, as the connection is.
@available(*, unavailable)
extension CallerProcesses: Sendable {}
