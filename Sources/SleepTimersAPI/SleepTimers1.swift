/// The D-Bus API of dfl-sleep-agent, named once for both ends: the agent
/// serves it, and dfl-sleepctl, the WebView bridge, the benchmark and the
/// fuzzers call it through these names. A unit test holds every name and
/// signature here against the shipped introspection file
/// (com.dreamsforlittles.SleepTimers1.xml), so the two cannot drift.
///
/// Pure Swift and nothing else: a protocol's names, not its transport (as
/// sourcekit-lsp keeps its request types apart from JSON-RPC).
public enum SleepTimers1 {
    /// The one well-known name the agent owns on the session bus, under the
    /// app's id: the .deb's agent and the Flatpak's alike, so that a Flatpak
    /// needs no `--own-name` and the name can be D-Bus activated from the
    /// sandbox's exported service file. Every client calls it here.
    public static let busName = AppIdentity.appID + ".SleepTimers1"
    /// The one object the agent serves.
    public static let objectPath = "/com/dreamsforlittles/SleepTimers1"
    /// The interface keeps its own name, apart from the bus name: it is the
    /// API other apps program against, whichever installation serves it.
    public static let interface = "com.dreamsforlittles.SleepTimers1"

    /// Every method of the interface, in the order of the introspection file.
    public static let methods: [any BusMethod.Type] = [
        Mirror.self, Remove.self, Reconcile.self, Purge.self, List.self, Complete.self, Open.self,
        CompleteRunning.self, OpenRunning.self,
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
