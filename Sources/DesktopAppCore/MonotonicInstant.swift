/// A moment on the app's monotonic clock (GLib's, which a change of the
/// wall clock does not move), in whole milliseconds from an unnamed start:
/// the time the window's rules measure clicks and quiet minutes against.
/// It is not an `Instant`, which counts from the Unix epoch and may jump.
public struct MonotonicInstant: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let milliseconds: Int64

    public init(milliseconds: Int64) {
        self.milliseconds = milliseconds
    }

    /// The time from `earlier` to `self`; negative when `self` is before.
    public func duration(since earlier: MonotonicInstant) -> Duration {
        .milliseconds(milliseconds &- earlier.milliseconds)
    }

    public var description: String { "\(milliseconds) ms (monotonic)" }

    public static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
        lhs.milliseconds < rhs.milliseconds
    }
}
