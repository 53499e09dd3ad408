import SleepTimerCore

/// Which refusals were logged lately, so that a page that tries again and
/// again (a frame navigating the top every 250 ms, a frame calling print()
/// in a loop) makes one log line per origin and minute, not thousands.
/// Times are the app's monotonic milliseconds.
public struct RefusalLog: Sendable {
    /// How long a refusal of one key (an origin, a scheme) is not logged again.
    public static let quiet: Duration = .seconds(60)
    /// Keys remembered at most; past that the oldest are forgotten, and
    /// while all are recent, nothing more is logged.
    static let maximumKeys = 256

    private var lastLogged: [String: Int64] = [:]

    public init() {}

    /// Whether a refusal under `key` is to be logged now; if so, it is
    /// remembered as logged.
    public mutating func shouldLog(_ key: String, now: Int64) -> Bool {
        let quiet = Self.quiet.wholeMilliseconds
        if let last = lastLogged[key], now - last < quiet { return false }
        if lastLogged.count >= Self.maximumKeys {
            lastLogged = lastLogged.filter { now - $0.value < quiet }
            if lastLogged.count >= Self.maximumKeys { return false }
        }
        lastLogged[key] = now
        return true
    }
}
