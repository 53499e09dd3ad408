/// The D-Bus API of dfl-sleep-agent, named once for both ends: the agent
/// serves it, and dfl-sleepctl, the WebView bridge, the benchmark and the
/// fuzzers call it through these names. A unit test holds every name and
/// signature here against the shipped introspection file
/// (com.dreamsforlittles.SleepTimers1.xml), so the two cannot drift.
///
/// Pure Swift and nothing else: a protocol's names, not its transport (as
/// sourcekit-lsp keeps its request types apart from JSON-RPC).
public enum SleepTimers1 {
    /// The well-known name the agent owns on the session bus.
    public static let busName = "com.dreamsforlittles.SleepTimers1"
    /// The second name the agent owns, under the app's id: inside a Flatpak
    /// only names under the app id can be D-Bus activated, so this is the
    /// one a call that must start the agent addresses there. It answers as
    /// `busName` does (the same object and interface).
    public static let appScopedBusName = AppIdentity.appID + ".SleepTimers1"

    /// The name a client calls the agent at: on the host the public name,
    /// which D-Bus activation (or systemd) starts; inside the Flatpak the
    /// one under the app's id, the only name of the agent's the sandbox can
    /// make D-Bus activatable.
    public static func callableBusName(sandboxed: Bool) -> String {
        sandboxed ? appScopedBusName : busName
    }
    /// The one object the agent serves.
    public static let objectPath = "/com/dreamsforlittles/SleepTimers1"
    /// The interface is named as the bus name, as D-Bus convention has it.
    public static let interface = busName

    /// Every method of the interface, in the order of the introspection file.
    public static let methods: [any BusMethod.Type] = [
        Mirror.self, Remove.self, Reconcile.self, Purge.self, List.self, Complete.self, Open.self,
    ]

    /// Every signal of the interface, in the order of the introspection file.
    public static let signals: [any BusSignal.Type] = [
        TimerChanged.self, TimerRemoved.self, CompletionFinished.self, TokenExpiring.self,
    ]
}

/// One argument of a method or signal: its name and D-Bus type signature.
public struct BusArgument: Sendable, Equatable, CustomStringConvertible {
    public let name: String
    public let signature: String

    public init(_ name: String, _ signature: String) {
        self.name = name
        self.signature = signature
    }

    public var description: String { "\(signature) \(name)" }
}

/// A method: its name, the arguments a call carries, and those its reply
/// carries.
public protocol BusMethod: Sendable {
    static var name: String { get }
    static var arguments: [BusArgument] { get }
    static var reply: [BusArgument] { get }
}

extension BusMethod {
    /// The signature a call must have.
    public static var inSignature: String { arguments.map(\.signature).joined() }
    /// The signature of the reply.
    public static var outSignature: String { reply.map(\.signature).joined() }
}

/// A signal: its name and the arguments it carries.
public protocol BusSignal: Sendable {
    static var name: String { get }
    static var arguments: [BusArgument] { get }
}

extension BusSignal {
    public static var signature: String { arguments.map(\.signature).joined() }
}
