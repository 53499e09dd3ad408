import SleepTimerCore

/// The window's refusals go through the agent's log limiter, counted on the
/// app's monotonic clock: a page that tries again and again (a frame
/// navigating the top every 250 ms, a frame calling print() in a loop)
/// makes one line per key (an origin, a scheme, a dialog and its origin)
/// and minute, which says how many refusals it stands for, not thousands.
/// It decides whether a refusal is logged, never whether something is
/// refused.
extension LogBudgetMachine where Time == MonotonicInstant {
    /// 256 keys with a line a minute each; keys beyond them share one.
    public static func pageRefusals() -> Self {
        Self(settings: Settings(period: .seconds(60), maximumCallers: 256))
    }

    /// `line`, with how many refusals it stands for, when a refusal under
    /// `key` at `now` is to be written; nil while the key's minute lasts.
    mutating func line(_ line: String, for key: String, at now: MonotonicInstant) -> String? {
        guard case .log(let count) = refused(by: key, now: now) else { return nil }
        return line + AppLogText.timesSinceLastLine(count)
    }
}
