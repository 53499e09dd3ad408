/// How often something a caller asks for may happen: `burst` at once, then
/// one more each `refill`. Opening the app starts processes, so
/// one message, or a thousand, must not start a thousand; a person clicks
/// far slower than the refill.
///
/// The clock is given to each event, read on whichever clock the caller
/// counts on (`Time`); a clock that goes back refills nothing (and restarts
/// the count from there) rather than trapping or refilling.
public struct TokenBucketMachine<Time: Moment>: Equatable, Sendable {
    public struct Settings: Equatable, Sendable {
        /// How many may happen at once.
        public let burst: Int
        /// How long one more takes to become allowed.
        public let refill: Duration

        public init(burst: Int, refill: Duration) {
            precondition(burst > 0 && refill.wholeMilliseconds > 0, "A bucket holds at least one token and refills.")
            self.burst = burst
            self.refill = refill
        }
    }

    /// What the bucket remembers between events.
    public struct State: Equatable, Sendable {
        /// What may happen now, before any refill.
        public fileprivate(set) var tokens: Int
        /// Up to when the tokens are counted; nil before the first ask.
        public fileprivate(set) var refilledAt: Time?
    }

    public let settings: Settings
    private(set) var state: State

    /// A full bucket.
    public init(settings: Settings) {
        self.settings = settings
        state = State(tokens: settings.burst, refilledAt: nil)
    }

    public enum AskedAction: Equatable, Sendable {
        /// Do what was asked: a token was taken.
        case allow
        /// Refuse it: no token is left.
        case refuse
    }

    /// Something was asked for at `now`: it takes one token when there is
    /// one.
    public mutating func asked(now: Time) -> AskedAction {
        refill(now: now)
        guard state.tokens > 0 else { return .refuse }
        state.tokens -= 1
        return .allow
    }

    /// Whether the bucket, refilled to `now`, is as a new one: forgetting it
    /// then changes nothing.
    public func isFull(at now: Time) -> Bool {
        var copy = self
        copy.refill(now: now)
        return copy.state.tokens == settings.burst
    }

    private mutating func refill(now: Time) {
        guard let since = state.refilledAt, state.tokens < settings.burst else {
            state.refilledAt = now
            return
        }
        let elapsed = now.duration(since: since).wholeMilliseconds
        guard elapsed >= 0 else {
            state.refilledAt = now
            return
        }
        let step = settings.refill.wholeMilliseconds
        let gained = elapsed / step
        guard gained > 0 else { return }
        if gained >= Int64(settings.burst - state.tokens) {
            state.tokens = settings.burst
            state.refilledAt = now
        } else {
            state.tokens += Int(gained)
            state.refilledAt = since + .milliseconds(gained * step)
        }
    }
}
