import SleepTimerCore

/// A moment on the app's monotonic clock (GLib's, which a change of the
/// wall clock does not move), in whole milliseconds from an unnamed start:
/// the time the window's rules measure clicks and quiet minutes against.
/// It is not an `Instant`, which counts from the Unix epoch and may jump.
public struct MonotonicInstant: Hashable, Comparable, Moment, CustomStringConvertible {
    public let milliseconds: Int64

    public init(milliseconds: Int64) {
        self.milliseconds = milliseconds
    }

    /// The time from `earlier` to `self`; negative when `self` is before.
    public func duration(since earlier: MonotonicInstant) -> Duration {
        .milliseconds(milliseconds &- earlier.milliseconds)
    }

    public var description: String { "\(milliseconds) ms (monotonic)" }

    /// `moment` moved by `duration`, to the millisecond (toward zero),
    /// saturating at the bounds of `Int64`.
    public static func + (moment: MonotonicInstant, duration: Duration) -> MonotonicInstant {
        let (sum, overflow) = moment.milliseconds.addingReportingOverflow(duration.wholeMilliseconds)
        return MonotonicInstant(milliseconds: overflow ? (duration > .zero ? .max : .min) : sum)
    }

    public static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
        lhs.milliseconds < rhs.milliseconds
    }
}
