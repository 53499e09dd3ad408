import DFLDBus
import SleepTimerCore

/// The D-Bus object when the timer store cannot be opened (a read-only or
/// full state directory, a database of a newer version): the agent still
/// owns its name and answers, so that apps and dfl-sleepctl learn why
/// nothing works instead of waiting on an agent that keeps restarting. Every
/// timer method fails with StorageFailed and the reason; the properties and
/// introspection work.
public final class UnavailableService {
    let connection: BusConnection
    let reason: String

    public init(connection: BusConnection, reason: String) {
        self.connection = connection
        self.reason = reason
    }

    public func register() {
        connection.register(path: TimerService.objectPath) { [unowned self] message in
            guard message.kind == .methodCall, let member = message.member else { return false }
            guard message.expectsReply else { return true }
            switch (message.interface, member) {
            case ("org.freedesktop.DBus.Introspectable"?, "Introspect") where message.signature.isEmpty:
                connection.send(message.methodReturn().append(.string(TimerService.introspection)))
            case ("org.freedesktop.DBus.Properties"?, "GetAll"):
                connection.send(message.methodReturn().append(.vardict(properties)))
            case ("org.freedesktop.DBus.Properties"?, "Get"):
                let name = (try? message.arguments())?.dropFirst().first?.stringValue ?? ""
                if let value = properties.first(where: { $0.0 == name })?.1 {
                    connection.send(message.methodReturn().append(.variant(value)))
                } else {
                    connection.send(message.errorReply(
                        name: BusError.Names.unknownProperty,
                        message: "There is no property of that name; the properties are \(properties.map(\.0).joined(separator: ", "))."))
                }
            default:
                connection.send(message.errorReply(
                    name: ServiceError.namePrefix + ServiceError.Code.storageFailed.rawValue,
                    message: "The timer store cannot be used, so dfl-sleep-agent can do nothing: \(reason)"))
            }
            return true
        }
    }

    private var properties: [(String, BusValue)] {
        [("Version", .string(AgentProperties.version)), ("RunningCount", .uint32(0)), ("PendingCompletions", .uint32(0)),
         ("NotificationServer", .string(""))]
    }
}
