import DFLDBus
import SleepTimerCore
import SleepTimersAPI

/// The D-Bus object when the timer store cannot be opened (a read-only or
/// full state directory, a database of a newer version): the agent still
/// owns its name and answers, so that apps and dfl-sleepctl learn why
/// nothing works instead of waiting on an agent that keeps restarting. Every
/// timer method fails with StorageFailed and the reason; the properties and
/// introspection work. When another agent holds the store, every call but
/// Introspect fails with StoreInUse, the properties too: they would say
/// "no timers" of a store this agent never read.
public final class UnavailableService {
    let connection: BusConnection
    let errorName: SleepTimers1.ErrorName
    let message: String
    let answersProperties: Bool

    public init(connection: BusConnection, reason: String) {
        self.connection = connection
        errorName = .storageFailed
        message = "The timer store cannot be used, so dfl-sleep-agent can do nothing: \(reason)"
        answersProperties = true
    }

    /// The answer of an agent that found the store held by another one.
    public init(connection: BusConnection, storeInUse message: String) {
        self.connection = connection
        errorName = .storeInUse
        self.message = message
        answersProperties = false
    }

    public func register() {
        connection.register(path: TimerService.objectPath) { [unowned self] message in
            guard message.kind == .methodCall, let member = message.member else { return false }
            guard message.expectsReply else { return true }
            switch (message.interface, member) {
            case (StandardInterface.Introspectable.name?, StandardInterface.Introspectable.introspect) where message.signature.isEmpty:
                connection.send(message.methodReturn().append(.string(TimerService.introspection)))
            case (StandardInterface.Properties.name?, StandardInterface.Properties.getAll) where answersProperties:
                connection.send(message.methodReturn().append(.vardict(properties)))
            case (StandardInterface.Properties.name?, StandardInterface.Properties.get) where answersProperties:
                let name = (try? message.arguments())?.dropFirst().first?.stringValue ?? ""
                if let value = properties.first(where: { $0.0 == name })?.1 {
                    connection.send(message.methodReturn().append(.variant(value)))
                } else {
                    connection.send(message.errorReply(
                        name: BusError.Names.unknownProperty,
                        message: "There is no property of that name; the properties are \(properties.map(\.0).joined(separator: ", "))."))
                }
            default:
                connection.send(message.errorReply(name: errorName.name, message: self.message))
            }
            return true
        }
    }

    private var properties: [(String, BusValue)] {
        [(SleepTimers1.Property.version.name, .string(AgentProperties.version)),
         (SleepTimers1.Property.runningCount.name, .uint32(0)), (SleepTimers1.Property.pendingCompletions.name, .uint32(0)),
         (SleepTimers1.Property.notificationServer.name, .string(""))]
    }
}

/// Serves the bus on the agent's loop thread only: the compiler keeps it there.
@available(*, unavailable)
extension UnavailableService: Sendable {}
