/// Which refusals were logged lately, so that a page that tries again and
/// again (a frame navigating the top every 250 ms, a frame calling print()
/// in a loop) makes one log line per origin and minute, not thousands.
/// It decides whether a refusal is logged, never whether something is
/// refused: hence not a "RefusalMachine".
public struct RefusalLogMachine: Sendable, Equatable {
    public struct Settings: Sendable, Equatable {
        /// How long a refusal of one key (an origin, a scheme) is not
        /// logged again.
        public var quiet: Duration

        public init(quiet: Duration = .seconds(60)) {
            self.quiet = quiet
        }
    }

    /// Keys remembered at most; past that the oldest are forgotten, and
    /// while all are recent, nothing more is logged.
    static let maximumKeys = 256

    public struct State: Sendable, Equatable {
        /// When each key's refusal was last logged.
        public var lastLogged: [String: MonotonicInstant] = [:]
    }

    public let settings: Settings
    private(set) var state = State()

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    public enum RefusedAction: Sendable, Equatable {
        /// Write the refusal's log line: it is remembered as logged.
        case log
        /// Write nothing: this key was logged within the quiet time, or the
        /// memory is full of recent keys.
        case stayQuiet
    }

    /// Something was refused under `key` at `now`.
    public mutating func refused(_ key: String, at now: MonotonicInstant) -> RefusedAction {
        if let last = state.lastLogged[key], now.duration(since: last) < settings.quiet { return .stayQuiet }
        if state.lastLogged.count >= Self.maximumKeys {
            state.lastLogged = state.lastLogged.filter { now.duration(since: $0.value) < settings.quiet }
            if state.lastLogged.count >= Self.maximumKeys { return .stayQuiet }
        }
        state.lastLogged[key] = now
        return .log
    }
}
