/// One exported object with one interface of its own, and the standard
/// interfaces beside it, written once for every object of this project: it
/// answers Introspect, serves read-only properties (Get, GetAll; Set is
/// refused), checks each call's signature against the method table, hands
/// the checked arguments to `call`, and sends signals and
/// PropertiesChanged. libdbus answers org.freedesktop.DBus.Peer itself.
///
/// An object that cannot serve (`refusing:`) answers Introspect, and Get
/// and GetAll when it has properties to give, and refuses every other call
/// with one error that says why.
///
/// Not Sendable: it sends on its connection, which is used on the loop's
/// thread only.
public final class BusObject {
    public let connection: BusConnection
    public let path: String
    public let interface: String
    private let introspectionFile: [UInt8]
    /// Made when first asked for, not at start.
    private lazy var introspection = StandardInterface.introspection(of: introspectionFile)
    private let dispatch: ObjectDispatch
    private let call: (Message, String, [BusValue]) -> Void

    public init(
        connection: BusConnection, path: String, interface: String, introspectionFile: [UInt8],
        methods: [String: String], properties: @escaping () -> [(String, BusValue)],
        call: @escaping (_ message: Message, _ member: String, _ arguments: [BusValue]) -> Void
    ) {
        self.connection = connection
        self.path = path
        self.interface = interface
        self.introspectionFile = introspectionFile
        dispatch = ObjectDispatch(path: path, interface: interface, methods: methods, properties: properties, refusal: nil)
        self.call = call
    }

    /// An object that only says why it cannot serve: every call but
    /// Introspect (and Get and GetAll, when `properties` is given) is
    /// refused with `refusal`.
    public init(
        connection: BusConnection, path: String, interface: String, introspectionFile: [UInt8],
        refusing refusal: BusError, properties: (() -> [(String, BusValue)])?
    ) {
        self.connection = connection
        self.path = path
        self.interface = interface
        self.introspectionFile = introspectionFile
        dispatch = ObjectDispatch(path: path, interface: interface, methods: [:], properties: properties, refusal: refusal)
        call = { _, _, _ in }
    }

    public func register() {
        connection.register(path: path) { [weak self] message in self?.handle(message) ?? false }
    }

    // MARK: Dispatch

    func handle(_ message: Message) -> Bool {
        switch dispatch.answer(to: message) {
        case .unhandled:
            return false
        case .introspection:
            reply(to: message, .string(introspection))
        case .reply(let value):
            reply(to: message, value)
        case .error(let name, let text):
            fail(message, name, text)
        case .call(let member, let arguments):
            call(message, member, arguments)
        }
        return true
    }

    // MARK: Replies and signals

    public func reply(to message: Message, _ values: BusValue...) {
        reply(to: message, contentsOf: values)
    }

    public func reply(to message: Message, contentsOf values: [BusValue]) {
        guard message.expectsReply else { return }
        connection.send(message.methodReturn().append(contentsOf: values))
    }

    public func fail(_ message: Message, _ name: String, _ text: String) {
        guard message.expectsReply else { return }
        connection.send(message.errorReply(name: name, message: text))
    }

    public func signal(_ member: String, _ values: BusValue...) {
        signal(member, contentsOf: values)
    }

    public func signal(_ member: String, contentsOf values: [BusValue]) {
        connection.send(Message.signal(path: path, interface: interface, member: member).append(contentsOf: values))
    }

    /// PropertiesChanged for the properties whose values differ between
    /// the two lists (the same names in the same order); nothing when none
    /// does.
    public func propertiesChanged(from before: [(String, BusValue)], to now: [(String, BusValue)]) {
        let changed = ObjectDispatch.changes(from: before, to: now)
        guard !changed.isEmpty else { return }
        connection.send(
            Message.signal(path: path, interface: StandardInterface.Properties.name,
                           member: StandardInterface.Properties.propertiesChanged)
                .append(.string(interface), .vardict(changed), .strings([])))
    }
}

/// Sends on its connection from the loop's thread only: the compiler keeps it there.
@available(*, unavailable)
extension BusObject: Sendable {}
