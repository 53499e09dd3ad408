/// Who a bus caller is, as a person counts callers: its process, not its
/// connection. A process can open a new connection for every few calls, and
/// each connection would then get an allowance of its own; the bus daemon
/// knows each connection's process, and is asked once per connection, the
/// answer kept while the connection lives.
///
/// The question is asynchronous (the agent's handlers never block): the
/// first call of a connection asks, and its calls wait for the answer. A
/// connection whose answer says nothing counts as one caller shared by all
/// such (`unidentified`), and a call beyond what may wait is dropped (a
/// refusal of that caller), so that not knowing never gives anyone an
/// allowance of their own. Connections kept, connections being asked about
/// and calls waiting are all bounded.
public struct CallerIdentityMachine: Equatable, Sendable {
    public struct Settings: Equatable, Sendable {
        /// Connections whose caller is kept at most.
        public let maximumKnown: Int
        /// Connections asked about at once at most.
        public let maximumAsking: Int
        /// Calls waiting for answers, of all connections together, at most.
        public let maximumWaiting: Int

        public init(maximumKnown: Int, maximumAsking: Int, maximumWaiting: Int) {
            precondition(maximumKnown > 0 && maximumAsking > 0 && maximumWaiting > 0, "Something is kept.")
            self.maximumKnown = maximumKnown
            self.maximumAsking = maximumAsking
            self.maximumWaiting = maximumWaiting
        }

        /// A session bus: a desktop has far fewer connections that call; a
        /// flood waits in a few hundred kilobytes at most.
        public static let bus = Settings(maximumKnown: 4096, maximumAsking: 1024, maximumWaiting: 8192)
    }

    /// One connection being asked about.
    public struct Asking: Equatable, Sendable {
        /// Its calls waiting for the answer.
        public fileprivate(set) var waiting: Int
        /// It left the bus before the answer came: the answer is not kept.
        public fileprivate(set) var left: Bool
    }

    /// What the machine remembers between events.
    public struct State: Equatable, Sendable {
        /// Each connection's caller, while it lives.
        public fileprivate(set) var known: [String: String] = [:]
        /// The connections asked about and not yet answered.
        public fileprivate(set) var asking: [String: Asking] = [:]
        /// The calls waiting, of all connections.
        public fileprivate(set) var waiting = 0
    }

    /// The caller of the connections that could not be told apart.
    public static let unidentified = "callers not yet identified"

    /// The caller of a connection whose process is `processID`.
    public static func caller(processID: UInt32) -> String { "process \(processID)" }

    public let settings: Settings
    private(set) var state = State()

    public init(settings: Settings) {
        self.settings = settings
    }

    public enum CalledAction: Equatable, Sendable {
        /// The call's caller is known: go on with it.
        case identified(String)
        /// Ask the bus for the connection's process; the call waits.
        case ask
        /// The call waits for the question already asked.
        case wait
        /// Too many calls wait, or connections are asked about: the call is
        /// refused as the unidentified caller's, and does nothing.
        case drop
    }

    /// A call came from `connection` (its unique name).
    public mutating func called(by connection: String) -> CalledAction {
        if let caller = state.known[connection] { return .identified(caller) }
        guard state.waiting < settings.maximumWaiting else { return .drop }
        if var asking = state.asking[connection] {
            asking.waiting += 1
            state.asking[connection] = asking
            state.waiting += 1
            return .wait
        }
        guard state.asking.count < settings.maximumAsking else { return .drop }
        state.asking[connection] = Asking(waiting: 1, left: false)
        state.waiting += 1
        return .ask
    }

    /// The answer for the calls that waited.
    public struct Answered: Equatable, Sendable {
        /// Their caller.
        public let caller: String
        /// How many waited.
        public let waiting: Int

        public init(caller: String, waiting: Int) {
            self.caller = caller
            self.waiting = waiting
        }
    }

    /// The bus answered the question about `connection`: its process, or nil
    /// (an error, no answer). The calls that waited go on as that caller.
    public mutating func answered(for connection: String, processID: UInt32?) -> Answered {
        let asking = state.asking.removeValue(forKey: connection)
        state.waiting -= asking?.waiting ?? 0
        let caller = processID.map(Self.caller(processID:)) ?? Self.unidentified
        if let asking, !asking.left, processID != nil, state.known.count < settings.maximumKnown {
            state.known[connection] = caller
        }
        return Answered(caller: caller, waiting: asking?.waiting ?? 0)
    }

    /// `connection` left the bus: its caller is forgotten (a unique name is
    /// never given again, and a process id may be).
    public mutating func left(_ connection: String) {
        state.known.removeValue(forKey: connection)
        state.asking[connection]?.left = true
    }

    /// The connections whose caller is kept now.
    public var connectionsKept: Int { state.known.count }
}
