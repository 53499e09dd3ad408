import SleepTimerCore

/// How long the app waits before loading the web app again after a failed
/// load: soon at first, then less and less often, never more than a minute.
/// A change of the network state tries again at once. Named for the page,
/// not the completion retries of SleepTimerCore.
public struct PageRetryMachine: Sendable, Equatable {
    /// Halved five times from a minute, so that the waits, in the whole
    /// seconds the offline page shows, are 2, 4, 8, 15, 30 and 60.
    static let backoff = Backoff(first: .seconds(60) / 32, longest: .seconds(60))

    public struct State: Sendable, Equatable {
        /// Failed loads in a row.
        public var failures = 0
    }

    private(set) var state = State()

    public init() {}

    /// One more load failed: load again after the returned wait, in whole
    /// seconds (the offline page counts them).
    public mutating func failed() -> Duration {
        state.failures += 1
        return .seconds(Self.backoff.wait(afterFailures: state.failures).roundedSeconds)
    }

    /// A load succeeded: the waits start over.
    public mutating func loaded() { state.failures = 0 }
}
