import DFLDBus
import SleepTimerCore
import SleepTimersAPI

/// The D-Bus object /com/dreamsforlittles/SleepTimers1: translates calls of
/// the com.dreamsforlittles.SleepTimers1 interface (and of Introspectable
/// and Properties) into the agent's operations, and the agent's changes
/// into signals. libdbus answers org.freedesktop.DBus.Peer itself.
public final class TimerService: AgentObserver {
    public static let busName = SleepTimers1.busName
    public static let objectPath = SleepTimers1.objectPath
    public static let interface = SleepTimers1.interface

    static let propertiesInterface = StandardInterface.Properties.name
    static let introspectableInterface = StandardInterface.Introspectable.name

    let connection: BusConnection
    let agent: Agent
    let log: any LogSink
    /// The last List reply, marshalled, for the views it was built from.
    private var listReply: (generation: Int, template: Message)?

    public init(connection: BusConnection, agent: Agent, log: any LogSink) {
        self.connection = connection
        self.agent = agent
        self.log = log
    }

    /// Serves the object and the introspection of its parents.
    public func register() {
        connection.register(path: Self.objectPath) { [unowned self] message in self.handle(message) }
        connection.register(path: "/", fallback: true) { [unowned self] message in self.handleParent(message) }
    }

    // MARK: Introspection

    /// The interface file shipped in /usr/share/dbus-1/interfaces, with the
    /// standard interfaces this object also implements.
    static let introspection: String = {
        let file = String(decoding: PackageResources.com_dreamsforlittles_SleepTimers1_xml, as: UTF8.self)
        let standard = """
              <interface name="org.freedesktop.DBus.Introspectable">
                <method name="Introspect"><arg name="xml_data" type="s" direction="out"/></method>
              </interface>
              <interface name="org.freedesktop.DBus.Properties">
                <method name="Get"><arg name="interface_name" type="s" direction="in"/><arg name="property_name" type="s" direction="in"/><arg name="value" type="v" direction="out"/></method>
                <method name="GetAll"><arg name="interface_name" type="s" direction="in"/><arg name="properties" type="a{sv}" direction="out"/></method>
                <method name="Set"><arg name="interface_name" type="s" direction="in"/><arg name="property_name" type="s" direction="in"/><arg name="value" type="v" direction="in"/></method>
                <signal name="PropertiesChanged"><arg name="interface_name" type="s"/><arg name="changed_properties" type="a{sv}"/><arg name="invalidated_properties" type="as"/></signal>
              </interface>
              <interface name="org.freedesktop.DBus.Peer">
                <method name="Ping"/>
                <method name="GetMachineId"><arg name="machine_uuid" type="s" direction="out"/></method>
              </interface>

            """
        guard let end = file.ranges(of: "</node>").last else { return file }
        return String(file[..<end.lowerBound]) + standard + String(file[end.lowerBound...])
    }()

    /// Introspection of "/", "/com" and "/com/dreamsforlittles", so that
    /// tools can walk down to the object.
    private func handleParent(_ message: Message) -> Bool {
        guard message.kind == .methodCall, message.interface == Self.introspectableInterface || message.interface == nil,
            message.member == StandardInterface.Introspectable.introspect, let path = message.path
        else { return false }
        let parents = ["/": "com", "/com": "dreamsforlittles", "/com/dreamsforlittles": "SleepTimers1"]
        guard let child = parents[path] else { return false }
        reply(to: message, .string("""
            <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
            <node>
              <node name="\(child)"/>
            </node>

            """))
        return true
    }

    // MARK: Calls

    private struct Method {
        let inSignature: String
        let outSignature: String
    }

    private static let methods = [String: Method](uniqueKeysWithValues: SleepTimers1.methods.map {
        ($0.name, Method(inSignature: $0.inSignature, outSignature: $0.outSignature))
    })

    func handle(_ message: Message) -> Bool {
        guard message.kind == .methodCall, let member = message.member else { return false }
        switch message.interface {
        case Self.introspectableInterface?:
            guard member == StandardInterface.Introspectable.introspect else { return unknownMethod(message) }
            guard message.signature.isEmpty else {
                fail(message, name: BusError.Names.invalidArgs, "Introspect takes no arguments.")
                return true
            }
            reply(to: message, .string(Self.introspection))
        case Self.propertiesInterface?:
            handleProperties(message, member: member)
        case Self.interface?, nil:
            handleTimers(message, member: member)
        default:
            fail(message, name: BusError.Names.unknownInterface,
                 "The object \(Self.objectPath) has no interface \(message.interface ?? "").")
        }
        return true
    }

    @discardableResult
    private func unknownMethod(_ message: Message) -> Bool {
        fail(message, name: BusError.Names.unknownMethod,
             "The interface \(message.interface ?? Self.interface) has no method \(message.member ?? "").")
        return true
    }

    private func handleTimers(_ message: Message, member: String) {
        guard let method = Self.methods[member] else {
            unknownMethod(message)
            return
        }
        guard message.signature == method.inSignature else {
            fail(message, name: BusError.Names.invalidArgs,
                 "\(member) takes arguments of type (\(method.inSignature)), not (\(message.signature)).")
            return
        }
        let arguments: [BusValue]
        do {
            arguments = try message.arguments()
        } catch {
            fail(message, name: error.name, error.message)
            return
        }
        do {
            switch member {
            case SleepTimers1.Mirror.name:
                try agent.mirror(try MirrorArguments.decode(arguments[0]))
                reply(to: message)
            case SleepTimers1.Remove.name:
                reply(to: message, .boolean(try agent.remove(arguments[0].stringValue!)))
            case SleepTimers1.Reconcile.name:
                let running = arguments[3].arrayElements!.compactMap(\.stringValue)
                reply(to: message, .uint32(try agent.reconcile(
                    apiOrigin: arguments[0].stringValue!, userID: arguments[1].stringValue!,
                    familySubjectID: arguments[2].stringValue!, running: running)))
            case SleepTimers1.Purge.name:
                reply(to: message, .uint32(try agent.purge(
                    apiOrigin: arguments[0].stringValue!, userID: arguments[1].stringValue!,
                    familySubjectID: arguments[2].stringValue!)))
            case SleepTimers1.List.name:
                // Marshalled once per change of the list, then copied.
                if listReply?.generation != agent.listGeneration {
                    let views = try agent.list()
                    listReply = (agent.listGeneration, Message.replyTemplate([.array(elementSignature: "a{sv}", views.map(\.dictionary))]))
                }
                if message.expectsReply { connection.send(message.methodReturn(copying: listReply!.template)) }
            case SleepTimers1.Complete.name:
                reply(to: message, .string(try agent.complete(
                    arguments[0].stringValue!, completedAtMilliseconds: arguments[1].int64Value!)))
            case SleepTimers1.Open.name:
                try agent.open(arguments[0].stringValue!)
                reply(to: message)
            default:
                unknownMethod(message)
            }
        } catch {
            log.log(error.code == .storageFailed ? .error : .notice, "Refused \(member) from \(message.sender ?? "?"): \(error.message)")
            fail(message, name: error.name, error.message)
        }
    }

    // MARK: Properties

    private func propertyValues(_ properties: AgentProperties) -> [(String, BusValue)] {
        [
            (SleepTimers1.Property.version.name, .string(AgentProperties.version)),
            (SleepTimers1.Property.runningCount.name, .uint32(properties.runningCount)),
            (SleepTimers1.Property.pendingCompletions.name, .uint32(properties.pendingCompletions)),
            (SleepTimers1.Property.notificationServer.name, .string(properties.notificationServer)),
        ]
    }

    private func handleProperties(_ message: Message, member: String) {
        let expected = [
            StandardInterface.Properties.get: "ss", StandardInterface.Properties.getAll: "s", StandardInterface.Properties.set: "ssv",
        ]
        guard let signature = expected[member] else {
            unknownMethod(message)
            return
        }
        guard message.signature == signature, let arguments = try? message.arguments(),
            let interface = arguments.first?.stringValue
        else {
            fail(message, name: BusError.Names.invalidArgs, "\(member) takes arguments of type (\(signature)).")
            return
        }
        // Neither the interface nor the property asked for is repeated: they
        // are strings the caller chose, and could be anything.
        guard interface == Self.interface || (member == StandardInterface.Properties.getAll && interface.isEmpty) else {
            fail(message, name: BusError.Names.unknownInterface,
                 "The object \(Self.objectPath) has no properties on that interface; they are on \(Self.interface).")
            return
        }
        let values = propertyValues(agent.properties)
        let noSuchProperty = "The interface \(Self.interface) has no property of that name; its properties are \(values.map(\.0).joined(separator: ", "))."
        switch member {
        case StandardInterface.Properties.getAll:
            reply(to: message, .vardict(values))
        case StandardInterface.Properties.get:
            let name = arguments[1].stringValue ?? ""
            guard let value = values.first(where: { $0.0 == name })?.1 else {
                fail(message, name: BusError.Names.unknownProperty, noSuchProperty)
                return
            }
            reply(to: message, .variant(value))
        default:
            let name = arguments[1].stringValue ?? ""
            if values.contains(where: { $0.0 == name }) {
                fail(message, name: BusError.Names.propertyReadOnly, "The property \(name) is read-only.")
            } else {
                fail(message, name: BusError.Names.unknownProperty, noSuchProperty)
            }
        }
    }

    // MARK: Replies and signals

    private func reply(to message: Message, _ values: BusValue...) {
        guard message.expectsReply else { return }
        connection.send(message.methodReturn().append(contentsOf: values))
    }

    private func fail(_ message: Message, name: String, _ text: String) {
        guard message.expectsReply else { return }
        connection.send(message.errorReply(name: name, message: text))
    }

    private func signal(_ signal: any BusSignal.Type, _ values: BusValue...) {
        assert(values.map(\.signature).joined() == signal.signature)
        connection.send(Message.signal(path: Self.objectPath, interface: Self.interface, member: signal.name)
            .append(contentsOf: values))
    }

    public func timerChanged(_ view: TimerView) {
        signal(SleepTimers1.TimerChanged.self, view.dictionary)
    }

    public func timerRemoved(_ id: TimerID, reason: RemovalReason) {
        signal(SleepTimers1.TimerRemoved.self, .string(id.string), .string(reason.rawValue))
    }

    public func completionFinished(_ id: TimerID, outcome: CompletionOutcome, activityID: String, sleptMinutes: Int64?) {
        signal(SleepTimers1.CompletionFinished.self, .string(id.string), .string(outcome.rawValue), .string(activityID))
    }

    public func tokenExpiring(_ id: TimerID, expiresAt: Instant) {
        signal(SleepTimers1.TokenExpiring.self, .string(id.string), .int64(expiresAt.millisecondsSince1970))
    }

    public func propertiesChanged(_ properties: AgentProperties, previous: AgentProperties) {
        let now = propertyValues(properties)
        let before = propertyValues(previous)
        let changed = zip(now, before).filter { $0.0.1 != $0.1.1 }.map(\.0)
        guard !changed.isEmpty else { return }
        connection.send(
            Message.signal(path: Self.objectPath, interface: Self.propertiesInterface,
                           member: StandardInterface.Properties.propertiesChanged)
                .append(.string(Self.interface), .vardict(changed), .strings([])))
    }
}

/// Serves the bus on the agent's loop thread only: the compiler keeps it there.
@available(*, unavailable)
extension TimerService: Sendable {}
