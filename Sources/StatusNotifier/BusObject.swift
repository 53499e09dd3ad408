import DFLDBus

/// One exported object with one interface of its own: what the item and
/// the menu share. It answers Introspect, serves read-only properties
/// (Get, GetAll; Set is refused), checks each call's signature against the
/// method table, and hands the checked arguments to `call`. libdbus
/// answers org.freedesktop.DBus.Peer itself.
final class BusObject {
    static let propertiesInterface = "org.freedesktop.DBus.Properties"
    static let introspectableInterface = "org.freedesktop.DBus.Introspectable"

    let connection: BusConnection
    let path: String
    let interface: String
    private let introspection: String
    /// Input signature of each method of `interface`.
    private let methods: [String: String]
    private let properties: () -> [(String, BusValue)]
    private let call: (Message, String, [BusValue]) -> Void

    init(
        connection: BusConnection, path: String, interface: String, introspectionFile: [UInt8],
        methods: [String: String], properties: @escaping () -> [(String, BusValue)],
        call: @escaping (_ message: Message, _ member: String, _ arguments: [BusValue]) -> Void
    ) {
        self.connection = connection
        self.path = path
        self.interface = interface
        self.introspection = Self.withStandardInterfaces(String(decoding: introspectionFile, as: UTF8.self))
        self.methods = methods
        self.properties = properties
        self.call = call
    }

    func register() {
        connection.register(path: path) { [weak self] message in self?.handle(message) ?? false }
    }

    // MARK: Dispatch

    private func handle(_ message: Message) -> Bool {
        guard message.kind == .methodCall, let member = message.member else { return false }
        switch message.interface {
        case Self.introspectableInterface?:
            guard member == "Introspect" else { return unknownMethod(message) }
            guard message.signature.isEmpty else {
                fail(message, BusError.Names.invalidArgs, "Introspect takes no arguments.")
                return true
            }
            reply(to: message, .string(introspection))
        case Self.propertiesInterface?:
            handleProperties(message, member: member)
        case interface?, nil:
            guard let signature = methods[member] else { return unknownMethod(message) }
            guard message.signature == signature else {
                fail(message, BusError.Names.invalidArgs,
                     "\(member) takes arguments of type (\(signature)), not (\(message.signature)).")
                return true
            }
            do {
                call(message, member, try message.arguments())
            } catch {
                fail(message, error.name, error.message)
            }
        default:
            fail(message, BusError.Names.unknownInterface, "The object \(path) has no interface of that name.")
        }
        return true
    }

    @discardableResult
    private func unknownMethod(_ message: Message) -> Bool {
        fail(message, BusError.Names.unknownMethod, "The object \(path) has no method of that name.")
        return true
    }

    private func handleProperties(_ message: Message, member: String) {
        let expected = ["Get": "ss", "GetAll": "s", "Set": "ssv"]
        guard let signature = expected[member] else {
            unknownMethod(message)
            return
        }
        guard message.signature == signature, let arguments = try? message.arguments(),
            let asked = arguments.first?.stringValue
        else {
            fail(message, BusError.Names.invalidArgs, "\(member) takes arguments of type (\(signature)).")
            return
        }
        // The names a caller chose are never repeated back: they could be anything.
        guard asked == interface || (member == "GetAll" && asked.isEmpty) else {
            fail(message, BusError.Names.unknownInterface, "The object \(path) has properties only on \(interface).")
            return
        }
        let values = properties()
        let name = arguments.count > 1 ? arguments[1].stringValue ?? "" : ""
        switch member {
        case "GetAll":
            reply(to: message, .vardict(values))
        case "Get":
            guard let value = values.first(where: { $0.0 == name })?.1 else {
                fail(message, BusError.Names.unknownProperty, "The interface \(interface) has no property of that name.")
                return
            }
            reply(to: message, .variant(value))
        default:
            if values.contains(where: { $0.0 == name }) {
                fail(message, BusError.Names.propertyReadOnly, "The properties of \(interface) are read-only.")
            } else {
                fail(message, BusError.Names.unknownProperty, "The interface \(interface) has no property of that name.")
            }
        }
    }

    // MARK: Replies and signals

    func reply(to message: Message, _ values: BusValue...) {
        guard message.expectsReply else { return }
        connection.send(message.methodReturn().append(contentsOf: values))
    }

    func fail(_ message: Message, _ name: String, _ text: String) {
        guard message.expectsReply else { return }
        connection.send(message.errorReply(name: name, message: text))
    }

    func signal(_ member: String, _ values: BusValue...) {
        connection.send(Message.signal(path: path, interface: interface, member: member).append(contentsOf: values))
    }

    /// The interface file with the standard interfaces this object also
    /// implements, before its closing tag.
    static func withStandardInterfaces(_ file: String) -> String {
        let standard = """
              <interface name="org.freedesktop.DBus.Introspectable">
                <method name="Introspect"><arg name="xml_data" type="s" direction="out"/></method>
              </interface>
              <interface name="org.freedesktop.DBus.Properties">
                <method name="Get"><arg name="interface_name" type="s" direction="in"/><arg name="property_name" type="s" direction="in"/><arg name="value" type="v" direction="out"/></method>
                <method name="GetAll"><arg name="interface_name" type="s" direction="in"/><arg name="properties" type="a{sv}" direction="out"/></method>
                <method name="Set"><arg name="interface_name" type="s" direction="in"/><arg name="property_name" type="s" direction="in"/><arg name="value" type="v" direction="in"/></method>
              </interface>
              <interface name="org.freedesktop.DBus.Peer">
                <method name="Ping"/>
                <method name="GetMachineId"><arg name="machine_uuid" type="s" direction="out"/></method>
              </interface>

            """
        guard let end = file.ranges(of: "</node>").last else { return file }
        return String(file[..<end.lowerBound]) + standard + String(file[end.lowerBound...])
    }
}
