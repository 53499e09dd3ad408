/// How often something a caller asks for may happen: `burst` at once, then
/// one more each `refill`. Opening the app starts processes, so
/// one message, or a thousand, must not start a thousand; a person clicks
/// far slower than the refill.
///
/// The clock is given to each call; a clock that goes back refills nothing
/// (and restarts the count from there) rather than trapping or refilling.
public struct TokenBucket: Equatable, Sendable {
    public let burst: Int
    public let refill: Duration
    public private(set) var tokens: Int
    private var refilledAt: Instant?

    public init(burst: Int, refill: Duration) {
        precondition(burst > 0 && refill.wholeMilliseconds > 0, "A bucket holds at least one token and refills.")
        self.burst = burst
        self.refill = refill
        tokens = burst
    }

    public enum Answer: Equatable, Sendable {
        case allowed
        case refused
    }

    /// Takes one token when there is one.
    public mutating func take(now: Instant) -> Answer {
        refill(now: now)
        guard tokens > 0 else { return .refused }
        tokens -= 1
        return .allowed
    }

    /// Whether the bucket, refilled to `now`, is as a new one: forgetting it
    /// then changes nothing.
    public func isFull(at now: Instant) -> Bool {
        var copy = self
        copy.refill(now: now)
        return copy.tokens == burst
    }

    private mutating func refill(now: Instant) {
        guard let since = refilledAt, tokens < burst else {
            refilledAt = now
            return
        }
        let elapsed = now.milliseconds(since: since)
        guard elapsed >= 0 else {
            refilledAt = now
            return
        }
        let step = refill.wholeMilliseconds
        let gained = elapsed / step
        guard gained > 0 else { return }
        if gained >= Int64(burst - tokens) {
            tokens = burst
            refilledAt = now
        } else {
            tokens += Int(gained)
            refilledAt = since.adding(milliseconds: gained * step)
        }
    }
}

/// A token bucket for each caller (a bus connection's unique name), so that
/// one flooding caller spends its own allowance and not a person's clicks
/// that come through another. The callers kept are bounded: a bucket that
/// has refilled is forgotten, and callers beyond the bound while every kept
/// bucket is in use share one bucket.
public struct CallerRateLimit: Equatable, Sendable {
    public let burst: Int
    public let refill: Duration
    public let maximumCallers: Int
    private var buckets: [String: TokenBucket] = [:]
    private var overflow: TokenBucket

    /// Opens: a burst of three, then one a second.
    public static let opens = CallerRateLimit(burst: 3, refill: .seconds(1), maximumCallers: 64)

    public init(burst: Int, refill: Duration, maximumCallers: Int) {
        self.burst = burst
        self.refill = refill
        self.maximumCallers = maximumCallers
        overflow = TokenBucket(burst: burst, refill: refill)
    }

    /// The callers with a bucket of their own now.
    public var callersKept: Int { buckets.count }

    public mutating func take(caller: String, now: Instant) -> TokenBucket.Answer {
        if buckets[caller] == nil, buckets.count >= maximumCallers {
            buckets = buckets.filter { !$0.value.isFull(at: now) }
        }
        guard buckets[caller] != nil || buckets.count < maximumCallers else { return overflow.take(now: now) }
        var bucket = buckets[caller] ?? TokenBucket(burst: burst, refill: refill)
        let answer = bucket.take(now: now)
        buckets[caller] = bucket
        return answer
    }
}
