/// What an object answers to each message: Introspect, the read-only
/// properties, the signature check of its own methods, and the refusals of
/// the D-Bus specification. Decided from the message alone, so that it can
/// be tested without a bus; BusObject carries it out.
///
/// No error message repeats a name the caller chose: it could be anything.
struct ObjectDispatch {
    let path: String
    let interface: String
    /// Input signature of each method of `interface`.
    let methods: [String: String]
    let properties: (() -> [(String, BusValue)])?
    /// When set, the object cannot serve: every call but Introspect (and
    /// Get and GetAll, with `properties`) is refused with it.
    let refusal: BusError?

    enum Answer: Equatable {
        /// Not a method call: libdbus goes on to its other handlers.
        case unhandled
        /// The object's introspection, which the object makes once.
        case introspection
        case reply(BusValue)
        case error(name: String, text: String)
        /// One of the object's own methods, with arguments of its signature.
        case call(member: String, arguments: [BusValue])
    }

    func answer(to message: Message) -> Answer {
        guard message.kind == .methodCall, let member = message.member else { return .unhandled }
        let refused = refusal.map { Answer.error(name: $0.name, text: $0.message) }
        switch message.interface {
        case StandardInterface.Introspectable.name?:
            guard member == StandardInterface.Introspectable.introspect else { return refused ?? unknownMethod(message) }
            guard message.signature.isEmpty else {
                return refused ?? .error(name: BusError.Names.invalidArgs, text: "Introspect takes no arguments.")
            }
            return .introspection
        case StandardInterface.Properties.name?:
            if let refused, properties == nil || member == StandardInterface.Properties.set { return refused }
            return propertiesAnswer(message, member: member, refused: refused)
        case interface?, nil:
            if let refused { return refused }
            guard let signature = methods[member] else { return unknownMethod(message) }
            guard message.signature == signature else {
                return .error(name: BusError.Names.invalidArgs,
                              text: "\(member) takes arguments of type (\(signature)), not (\(message.signature)).")
            }
            do {
                return .call(member: member, arguments: try message.arguments())
            } catch {
                return .error(name: error.name, text: error.message)
            }
        default:
            return refused ?? .error(name: BusError.Names.unknownInterface, text: "The object \(path) has no interface of that name.")
        }
    }

    /// The interface named is one of this object's (a call without one
    /// goes to its own), so it may be said.
    private func unknownMethod(_ message: Message) -> Answer {
        .error(name: BusError.Names.unknownMethod, text: "The interface \(message.interface ?? interface) has no method of that name.")
    }

    private func propertiesAnswer(_ message: Message, member: String, refused: Answer?) -> Answer {
        let expected = [
            StandardInterface.Properties.get: "ss", StandardInterface.Properties.getAll: "s", StandardInterface.Properties.set: "ssv",
        ]
        guard let signature = expected[member] else { return refused ?? unknownMethod(message) }
        guard message.signature == signature, let arguments = try? message.arguments(),
            let asked = arguments.first?.stringValue
        else {
            return .error(name: BusError.Names.invalidArgs, text: "\(member) takes arguments of type (\(signature)).")
        }
        guard asked == interface || (member == StandardInterface.Properties.getAll && asked.isEmpty) else {
            return .error(name: BusError.Names.unknownInterface,
                          text: "The object \(path) has no properties on that interface; they are on \(interface).")
        }
        let values = properties?() ?? []
        let name = arguments.count > 1 ? arguments[1].stringValue ?? "" : ""
        let noSuchProperty = Answer.error(
            name: BusError.Names.unknownProperty,
            text: "The interface \(interface) has no property of that name; its properties are \(values.map(\.0).joined(separator: ", "))."
        )
        switch member {
        case StandardInterface.Properties.getAll:
            return .reply(.vardict(values))
        case StandardInterface.Properties.get:
            guard let value = values.first(where: { $0.0 == name })?.1 else { return noSuchProperty }
            return .reply(.variant(value))
        default:
            guard values.contains(where: { $0.0 == name }) else { return noSuchProperty }
            return .error(name: BusError.Names.propertyReadOnly, text: "The property \(name) is read-only.")
        }
    }

    /// The properties whose values differ between two readings (the same
    /// names in the same order).
    static func changes(from before: [(String, BusValue)], to now: [(String, BusValue)]) -> [(String, BusValue)] {
        zip(now, before).filter { $0.0.1 != $0.1.1 }.map(\.0)
    }
}
