import DFLDBus
import SleepAgent
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
    private let object: BusObject

    public init(connection: BusConnection, reason: String) {
        object = Self.object(
            connection, refusal: .storageFailed,
            "The timer store cannot be used, so dfl-sleep-agent can do nothing: \(reason)", properties: { Self.properties })
    }

    /// The answer of an agent that found the store held by another one.
    public init(connection: BusConnection, storeInUse message: String) {
        object = Self.object(connection, refusal: .storeInUse, message, properties: nil)
    }

    private static func object(
        _ connection: BusConnection, refusal: SleepTimers1.ErrorName, _ message: String,
        properties: (() -> [(String, BusValue)])?
    ) -> BusObject {
        BusObject(
            connection: connection, path: TimerService.objectPath, interface: TimerService.interface,
            introspectionFile: TimerService.introspectionFile, refusing: BusError(name: refusal.name, message: message),
            properties: properties)
    }

    public func register() {
        object.register()
    }

    /// An agent with no store has no timers and no server it knows of, and
    /// accepts no timer from any origin.
    /// Made at each read: held in a stored static, the values are reachable
    /// only through pointers Swift tags (a long string's storage, a case's
    /// payload), which LeakSanitizer cannot follow, so it reports a leak.
    static var properties: [(String, BusValue)] {
        TimerService.propertyValues(runningCount: 0, pendingCompletions: 0, notificationServer: "", allowedOrigins: [])
    }
}

/// Serves the bus on the agent's loop thread only: the compiler keeps it there.
@available(*, unavailable)
extension UnavailableService: Sendable {}
