/// How long to wait before trying again after failures in a row: the
/// project's one back-off. The wait starts at `first` and doubles with each
/// further failure up to `longest`, so that something failing for a while
/// is asked less and less often, yet never waited for longer than
/// `longest`. Where many desktops may retry the same server at once, the
/// wait is drawn with full jitter (anywhere from zero up to it), which
/// spreads them out after an outage.
public struct Backoff: Sendable, Equatable {
    /// The wait after the first failure.
    public var first: Duration
    /// The wait no failure count exceeds.
    public var longest: Duration

    public init(first: Duration, longest: Duration) {
        precondition(first > .zero && longest >= first)
        self.first = first
        self.longest = longest
    }

    /// The wait after `failures` failures in a row (1 for the first; fewer
    /// counts as one).
    public func wait(afterFailures failures: Int) -> Duration {
        var wait = first
        var doublings = max(0, failures - 1)
        // Doubled step by step, stopping at the ceiling: no count of
        // failures overflows.
        while doublings > 0 && wait < longest {
            wait = wait * 2
            doublings -= 1
        }
        return min(wait, longest)
    }

    /// A wait drawn evenly from zero up to `wait(afterFailures:)`, to the
    /// millisecond (full jitter).
    public func jitteredWait<Random: RandomNumberGenerator>(
        afterFailures failures: Int, using random: inout Random
    ) -> Duration {
        .milliseconds(Int64.random(in: 0...wait(afterFailures: failures).wholeMilliseconds, using: &random))
    }
}
