/// A token bucket for each caller (a process, as a person counts callers;
/// the app's ways in), so that one flooding caller spends its own allowance
/// and not a person's clicks that come through another; and one bucket for
/// all callers together, so that many callers (many processes, or a caller
/// the shell could not tell apart) get no more in total. The callers kept
/// are bounded: a bucket that has refilled is forgotten, and callers beyond
/// the bound while every kept bucket is in use share one bucket.
public struct CallerRateLimitMachine: Equatable, Sendable {
    public struct Settings: Equatable, Sendable {
        /// Each caller's bucket.
        public let bucket: TokenBucketMachine<Instant>.Settings
        /// The callers with a bucket of their own at most.
        public let maximumCallers: Int
        /// The bucket of all callers together; nil: none.
        public let allCallers: TokenBucketMachine<Instant>.Settings?

        public init(burst: Int, refill: Duration, maximumCallers: Int, allCallers: TokenBucketMachine<Instant>.Settings? = nil) {
            bucket = TokenBucketMachine<Instant>.Settings(burst: burst, refill: refill)
            self.maximumCallers = maximumCallers
            self.allCallers = allCallers
        }

        /// Opens: a burst of three, then one a second, for each caller; all
        /// callers together a burst of six, then two a second, so that one
        /// flooding caller still leaves a person's click room.
        public static let opens = Settings(
            burst: 3, refill: .seconds(1), maximumCallers: 64,
            allCallers: TokenBucketMachine<Instant>.Settings(burst: 6, refill: .milliseconds(500)))
    }

    /// What the limit remembers between events.
    public struct State: Equatable, Sendable {
        /// The callers with a bucket of their own.
        public fileprivate(set) var buckets: [String: TokenBucketMachine<Instant>]
        /// The bucket the callers beyond the bound share.
        public fileprivate(set) var overflow: TokenBucketMachine<Instant>
        /// The bucket of all callers together, when the settings have one.
        public fileprivate(set) var all: TokenBucketMachine<Instant>?
    }

    public let settings: Settings
    private(set) var state: State

    public init(settings: Settings) {
        self.settings = settings
        state = State(
            buckets: [:], overflow: TokenBucketMachine(settings: settings.bucket),
            all: settings.allCallers.map(TokenBucketMachine.init(settings:)))
    }

    /// The callers with a bucket of their own now.
    public var callersKept: Int { state.buckets.count }

    public typealias AskedAction = TokenBucketMachine<Instant>.AskedAction

    /// `caller` asked for something at `now`: allowed while its bucket (or
    /// the shared one) and the bucket of all callers hold a token. A caller
    /// refused by its own bucket takes nothing from all callers' (a flood
    /// spends its own allowance only), and one refused by all callers'
    /// keeps its own token.
    public mutating func asked(by caller: String, now: Instant) -> AskedAction {
        if state.buckets[caller] == nil, state.buckets.count >= settings.maximumCallers {
            state.buckets = state.buckets.filter { !$0.value.isFull(at: now) }
        }
        let own = state.buckets[caller] != nil || state.buckets.count < settings.maximumCallers
        var bucket = own ? state.buckets[caller] ?? TokenBucketMachine(settings: settings.bucket) : state.overflow
        guard bucket.asked(now: now) == .allow, takeFromAll(now: now) else { return .refuse }
        if own { state.buckets[caller] = bucket } else { state.overflow = bucket }
        return .allow
    }

    /// Takes a token of all callers' bucket; true without one.
    private mutating func takeFromAll(now: Instant) -> Bool {
        guard var all = state.all else { return true }
        let action = all.asked(now: now)
        state.all = all
        return action == .allow
    }
}
