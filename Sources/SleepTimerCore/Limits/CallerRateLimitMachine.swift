/// A token bucket for each caller (a bus connection's unique name), so that
/// one flooding caller spends its own allowance and not a person's clicks
/// that come through another. The callers kept are bounded: a bucket that
/// has refilled is forgotten, and callers beyond the bound while every kept
/// bucket is in use share one bucket.
public struct CallerRateLimitMachine: Equatable, Sendable {
    public struct Settings: Equatable, Sendable {
        /// Each caller's bucket.
        public let bucket: TokenBucketMachine.Settings
        /// The callers with a bucket of their own at most.
        public let maximumCallers: Int

        public init(burst: Int, refill: Duration, maximumCallers: Int) {
            bucket = TokenBucketMachine.Settings(burst: burst, refill: refill)
            self.maximumCallers = maximumCallers
        }

        /// Opens: a burst of three, then one a second.
        public static let opens = Settings(burst: 3, refill: .seconds(1), maximumCallers: 64)
    }

    /// What the limit remembers between events.
    public struct State: Equatable, Sendable {
        /// The callers with a bucket of their own.
        public fileprivate(set) var buckets: [String: TokenBucketMachine]
        /// The bucket the callers beyond the bound share.
        public fileprivate(set) var overflow: TokenBucketMachine
    }

    public let settings: Settings
    public private(set) var state: State

    public init(settings: Settings) {
        self.settings = settings
        state = State(buckets: [:], overflow: TokenBucketMachine(settings: settings.bucket))
    }

    /// The callers with a bucket of their own now.
    public var callersKept: Int { state.buckets.count }

    public typealias AskedAction = TokenBucketMachine.AskedAction

    /// `caller` asked for something at `now`: allowed while its bucket (or
    /// the shared one) holds a token.
    public mutating func asked(by caller: String, now: Instant) -> AskedAction {
        if state.buckets[caller] == nil, state.buckets.count >= settings.maximumCallers {
            state.buckets = state.buckets.filter { !$0.value.isFull(at: now) }
        }
        guard state.buckets[caller] != nil || state.buckets.count < settings.maximumCallers else {
            return state.overflow.asked(now: now)
        }
        var bucket = state.buckets[caller] ?? TokenBucketMachine(settings: settings.bucket)
        let action = bucket.asked(now: now)
        state.buckets[caller] = bucket
        return action
    }
}
