/// When to try a completion again after a failure that may pass.
///
/// Full-jitter exponential backoff (a random wait between zero and an
/// exponentially growing, capped ceiling) spreads retries of many agents
/// out after an outage; a server's Retry-After wins when it gives one,
/// within a bound; and nothing is retried once the token has expired, since
/// the platform would refuse it anyway. It holds only its settings.
public struct RetryRule: Sendable, Equatable {
    /// The ceilings of the jittered waits.
    public var backoff: Backoff
    /// Longest Retry-After honoured; a longer one is cut to this.
    public var maximumRetryAfter: Duration

    public init(
        backoff: Backoff = Backoff(first: .seconds(2), longest: .seconds(5 * 60)),
        maximumRetryAfter: Duration = .seconds(15 * 60)
    ) {
        precondition(maximumRetryAfter >= .zero)
        self.backoff = backoff
        self.maximumRetryAfter = maximumRetryAfter
    }

    /// When the next attempt goes, if one does.
    public enum NextAttempt: Sendable, Equatable {
        case retry(at: Instant)
        /// The next attempt would come after the token stops being accepted.
        case giveUpTokenExpires
    }

    /// The ceiling of the backoff after `attempt` failed attempts (1 for
    /// the first failure).
    public func backoffCeiling(afterAttempt attempt: Int) -> Duration {
        backoff.wait(afterFailures: attempt)
    }

    /// When to try again after `attempt` failed attempts.
    ///
    /// - Parameters:
    ///   - retryAfter: the server's Retry-After, already parsed
    ///     (`RetryAfter.parse`), if any.
    ///   - random: the source of the jitter.
    public func nextAttempt<Random: RandomNumberGenerator>(
        afterAttempt attempt: Int,
        now: Instant,
        retryAfter: Duration?,
        tokenExpiresAt: Instant,
        random: inout Random
    ) -> NextAttempt {
        let delay: Duration
        if let retryAfter {
            delay = min(max(.zero, retryAfter), maximumRetryAfter)
        } else {
            delay = backoff.jitteredWait(afterFailures: attempt, using: &random)
        }
        let next = now + delay
        return next < tokenExpiresAt ? .retry(at: next) : .giveUpTokenExpires
    }
}
