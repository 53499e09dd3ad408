/// Who owns a well-known name, as the bus daemon last said: the answer to
/// GetNameOwner and every NameOwnerChanged since, applied in the order they
/// arrive. A signal "from" a well-known name is only as good as this check:
/// any connection may send a signal that carries the name's path, interface
/// and member, broadcast or straight to one peer; only the sender's unique
/// name, which the bus daemon sets, tells the owner's from a forgery.
///
/// A value with no connection, so that its rules are tested without a bus;
/// `NameOwnerWatch` feeds it from one.
public struct NameOwnership: Sendable, Equatable {
    public let name: String
    /// The owner's unique name (":1.42"); nil while there is none, or while
    /// the bus has not answered yet.
    public private(set) var owner: String?

    public init(name: String) {
        self.name = name
    }

    /// True for a message whose sender is the name's current owner.
    public func sent(_ message: Message) -> Bool {
        guard let owner, let sender = message.sender else { return false }
        return sender == owner
    }

    /// Reads a NameOwnerChanged about this name from the bus daemon itself;
    /// returns true when it was one (whatever it changed). Anything else,
    /// a lookalike from another connection among it, changes nothing.
    @discardableResult
    public mutating func observe(_ message: Message) -> Bool {
        guard message.kind == .signal, message.sender == StandardInterface.Bus.name,
            message.interface == StandardInterface.Bus.name, message.member == StandardInterface.Bus.nameOwnerChanged,
            let arguments = try? message.arguments(), arguments.count == 3, arguments[0].stringValue == name,
            let newOwner = arguments[2].stringValue
        else { return false }
        owner = newOwner.isEmpty ? nil : newOwner
        return true
    }

    /// Takes the answer to GetNameOwner: the owner, or none when the bus
    /// says the name has no owner (or cannot say).
    public mutating func answered(_ result: Result<Message, BusError>) {
        guard case .success(let reply) = result, let owner = (try? reply.arguments())?.first?.stringValue, !owner.isEmpty
        else {
            owner = nil
            return
        }
        self.owner = owner
    }
}

/// Follows the owner of a well-known name on a connection, so that its
/// consumers accept signals from the owner only (`sent(_:)`): dfl-sleepctl
/// watch and the WebView bridge with the agent's signals.
///
/// The question is asked without blocking, after the match is in place:
/// the bus answers it and reports later changes on the same connection in
/// order, so the last word always wins. (A blocking call would take its
/// reply out of turn, ahead of changes that are older than it.) Until the
/// answer comes, no message counts as the owner's.
public final class NameOwnerWatch {
    private let connection: BusConnection
    private var ownership: NameOwnership
    private var filter: BusConnection.Filter?
    /// After each answer or change, with the owner then (nil: none).
    public var onOwnerChanged: ((String?) -> Void)?

    public init(name: String, connection: BusConnection) {
        self.connection = connection
        ownership = NameOwnership(name: name)
    }

    deinit {
        if let filter { connection.removeSignalFilter(filter) }
    }

    public var name: String { ownership.name }
    public var owner: String? { ownership.owner }

    /// Subscribes to the name's NameOwnerChanged and asks who owns it now.
    public func start() throws(BusError) {
        guard filter == nil else { return }
        let bus = StandardInterface.Bus.self
        try connection.addMatch(bus.ownerChangedMatch(of: name))
        // Never consumes the message: other watches may follow the same name.
        filter = connection.addSignalFilter { [weak self] message in
            guard let self else { return false }
            if self.ownership.observe(message) { self.onOwnerChanged?(self.ownership.owner) }
            return false
        }
        let question = Message.methodCall(destination: bus.name, path: bus.path, interface: bus.name, member: bus.getNameOwner)
            .append(.string(name))
        connection.call(question) { [weak self] result in
            guard let self else { return }
            self.ownership.answered(result)
            self.onOwnerChanged?(self.ownership.owner)
        }
    }

    /// True for a message whose sender is the name's current owner.
    public func sent(_ message: Message) -> Bool { ownership.sent(message) }
}

/// Bound to its connection's loop, as the connection is.
@available(*, unavailable)
extension NameOwnerWatch: Sendable {}
