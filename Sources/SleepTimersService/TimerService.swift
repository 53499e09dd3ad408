import AgentWorkflows
import DFLDBus
import SleepAgent
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

    let connection: BusConnection
    let agent: Agent
    /// Each call's caller as a person counts callers (its process): the
    /// agent's limits hold per caller, not per connection.
    let callers: ServiceCallers
    /// The object itself: dispatch, Introspect, Properties and signals.
    private lazy var object = BusObject(
        connection: connection, path: Self.objectPath, interface: Self.interface,
        introspectionFile: Self.introspectionFile, methods: Self.methods,
        properties: { [unowned self] in Self.propertyValues(agent.properties) },
        call: { [unowned self] message, member, arguments in call(message, member, arguments) })
    /// The last List reply, marshalled, for the views it was built from.
    private var listReply: (generation: Int, template: Message)?

    /// `callers` nil: each connection is its own caller (a bus of one
    /// client, in tests).
    public init(connection: BusConnection, agent: Agent, log: any LogSink, callers: CallerProcesses? = nil) {
        self.connection = connection
        self.agent = agent
        self.callers = ServiceCallers(agent: agent, log: log, callers: callers)
    }

    /// Serves the object and the introspection of its parents.
    public func register() {
        object.register()
        connection.register(path: "/", fallback: true) { [unowned self] message in self.handleParent(message) }
    }

    /// Complete's `completed_at_ms` as the layers below take it: 0 (now)
    /// is nil; a negative time is refused here.
    static func completedAt(busMilliseconds: Int64) throws(ServiceError) -> Instant? {
        do throws(CompletionRefusal) {
            return try CompletionMachine.completedAt(busMilliseconds: busMilliseconds)
        } catch {
            throw ServiceError(error)
        }
    }

    // MARK: Introspection

    /// The interface file shipped in /usr/share/dbus-1/interfaces.
    static let introspectionFile = PackageResources.com_dreamsforlittles_SleepTimers1_xml

    /// Introspection of "/", "/com", "/com/dreamsforlittles" and
    /// "/com/dreamsforlittles/DreamsForLittles", so that tools can walk down
    /// to the objects (this one and the searches').
    private func handleParent(_ message: Message) -> Bool {
        guard message.kind == .methodCall, message.interface == StandardInterface.Introspectable.name || message.interface == nil,
            message.member == StandardInterface.Introspectable.introspect, let path = message.path
        else { return false }
        let parents = [
            "/": ["com"], "/com": ["dreamsforlittles"], "/com/dreamsforlittles": ["DreamsForLittles", "SleepTimers1"],
            "/com/dreamsforlittles/DreamsForLittles": ["KRunner", "SearchProvider"],
        ]
        guard let children = parents[path] else { return false }
        object.reply(to: message, .string("""
            <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
            <node>
            \(children.map { "  <node name=\"\($0)\"/>\n" }.joined())</node>

            """))
        return true
    }

    // MARK: Calls

    /// Input signature of each method, from the contract.
    static let methods = [String: String](uniqueKeysWithValues: SleepTimers1.methods.map { ($0.name, $0.inSignature) })

    private func call(_ message: Message, _ member: String, _ arguments: [BusValue]) {
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
                let completedAt = try Self.completedAt(busMilliseconds: arguments[1].int64Value!)
                reply(to: message, .string(try agent.complete(arguments[0].stringValue!, completedAt: completedAt)))
            case SleepTimers1.Open.name:
                let id = try agent.openable(arguments[0].stringValue!)
                reply(to: message)
                callers.identify(message) { [agent] caller in agent.open(id, activationToken: nil, caller: caller) }
            case SleepTimers1.CompleteRunning.name:
                switch try agent.completeRunning() {
                case .complete:
                    reply(to: message, .string(SleepTimers1.RunningOutcome.completed.rawValue))
                case .tellNoneRunning:
                    reply(to: message, .string(SleepTimers1.RunningOutcome.noneRunning.rawValue))
                case .openAppHome:
                    reply(to: message, .string(SleepTimers1.RunningOutcome.several.rawValue))
                    callers.identify(message) { [agent] caller in agent.openApp(activationToken: nil, caller: caller) }
                }
            case SleepTimers1.OpenRunning.name:
                reply(to: message, .string(SleepTimers1.RunningOutcome.opened.rawValue))
                callers.identify(message) { [agent] caller in agent.openRunning(caller: caller) }
            default:
                break // the method table holds the contract's methods only
            }
        } catch {
            callers.refuse(message, member, error, on: object)
        }
    }

    // MARK: Properties

    static func propertyValues(_ properties: AgentProperties) -> [(String, BusValue)] {
        propertyValues(
            runningCount: properties.runningCount, pendingCompletions: properties.pendingCompletions,
            notificationServer: properties.notificationServer, allowedOrigins: properties.allowedOrigins)
    }

    static func propertyValues(
        runningCount: UInt32, pendingCompletions: UInt32, notificationServer: String, allowedOrigins: [String]
    ) -> [(String, BusValue)] {
        [
            (SleepTimers1.Property.version.name, .string(AgentProperties.version)),
            (SleepTimers1.Property.runningCount.name, .uint32(runningCount)),
            (SleepTimers1.Property.pendingCompletions.name, .uint32(pendingCompletions)),
            (SleepTimers1.Property.notificationServer.name, .string(notificationServer)),
            (SleepTimers1.Property.allowedOrigins.name, .strings(allowedOrigins)),
        ]
    }

    // MARK: Replies and signals

    private func reply(to message: Message, _ values: BusValue...) {
        object.reply(to: message, contentsOf: values)
    }

    private func signal(_ signal: any BusSignal.Type, _ values: BusValue...) {
        assert(values.map(\.signature).joined() == signal.signature)
        object.signal(signal.name, contentsOf: values)
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
        object.propertiesChanged(from: Self.propertyValues(previous), to: Self.propertyValues(properties))
    }
}

/// Serves the bus on the agent's loop thread only: the compiler keeps it there.
@available(*, unavailable)
extension TimerService: Sendable {}
