/// When to try a completion again after a failure that may pass.
///
/// Full-jitter exponential backoff (a random wait between zero and an
/// exponentially growing, capped ceiling) spreads retries of many agents
/// out after an outage; a server's Retry-After wins when it gives one,
/// within a bound; and nothing is retried once the token has expired, since
/// the platform would refuse it anyway.
public struct RetryPolicy: Sendable, Equatable {
    /// Ceiling of the first backoff.
    public var baseDelay: Int64
    /// Ceiling no backoff exceeds.
    public var maximumDelay: Int64
    /// Longest Retry-After honoured; a longer one is cut to this.
    public var maximumRetryAfter: Int64

    public init(
        baseDelay: Int64 = 2 * Milliseconds.second,
        maximumDelay: Int64 = 5 * Milliseconds.minute,
        maximumRetryAfter: Int64 = 15 * Milliseconds.minute
    ) {
        precondition(baseDelay > 0 && maximumDelay >= baseDelay && maximumRetryAfter >= 0)
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.maximumRetryAfter = maximumRetryAfter
    }

    public enum Decision: Sendable, Equatable {
        case retry(at: Instant)
        /// The next attempt would come after the token stops being accepted.
        case giveUpTokenExpires
    }

    /// The ceiling of the backoff after `attempt` failed attempts (1 for
    /// the first failure).
    public func backoffCeiling(afterAttempt attempt: Int) -> Int64 {
        let exponent = max(0, min(attempt - 1, 40))
        let (scaled, overflow) = baseDelay.multipliedReportingOverflow(by: Int64(1) << exponent)
        return overflow ? maximumDelay : min(scaled, maximumDelay)
    }

    /// What to do after `attempt` failed attempts.
    ///
    /// - Parameters:
    ///   - retryAfter: the server's Retry-After, already parsed, if any.
    ///   - random: the source of the jitter.
    public func decide<Random: RandomNumberGenerator>(
        afterAttempt attempt: Int,
        now: Instant,
        retryAfter: Int64?,
        tokenExpiresAt: Instant,
        random: inout Random
    ) -> Decision {
        let delay: Int64
        if let retryAfter {
            delay = min(max(0, retryAfter), maximumRetryAfter)
        } else {
            delay = Int64.random(in: 0...backoffCeiling(afterAttempt: attempt), using: &random)
        }
        let next = now.adding(milliseconds: delay)
        return next < tokenExpiresAt ? .retry(at: next) : .giveUpTokenExpires
    }
}
