/// A point in time in whole milliseconds since the Unix epoch: the unit the
/// D-Bus API and the store use, with no floating-point rounding.
public struct Instant: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var millisecondsSince1970: Int64

    public init(millisecondsSince1970: Int64) {
        self.millisecondsSince1970 = millisecondsSince1970
    }

    public init(secondsSince1970: Int64) {
        self.millisecondsSince1970 = secondsSince1970 &* 1000
    }

    /// `self` moved by `milliseconds`, saturating instead of trapping, since
    /// the amounts can come from other processes.
    public func adding(milliseconds: Int64) -> Instant {
        let (sum, overflow) = millisecondsSince1970.addingReportingOverflow(milliseconds)
        if overflow { return Instant(millisecondsSince1970: milliseconds > 0 ? .max : .min) }
        return Instant(millisecondsSince1970: sum)
    }

    /// Milliseconds from `earlier` to `self`; negative when `self` is before.
    public func milliseconds(since earlier: Instant) -> Int64 {
        let (difference, overflow) = millisecondsSince1970.subtractingReportingOverflow(earlier.millisecondsSince1970)
        if overflow { return millisecondsSince1970 > earlier.millisecondsSince1970 ? .max : .min }
        return difference
    }

    public var description: String { "\(millisecondsSince1970) ms" }

    public static func < (lhs: Instant, rhs: Instant) -> Bool {
        lhs.millisecondsSince1970 < rhs.millisecondsSince1970
    }
}

/// Where "now" comes from, so that rules about expiry and start times can be
/// tested at any moment.
public protocol WallClock: Sendable {
    func now() -> Instant
}

/// The system's real-time clock.
public struct SystemClock: WallClock {
    public init() {}

    public func now() -> Instant {
        Instant(millisecondsSince1970: System.realTimeMilliseconds())
    }
}

/// Durations the rules are written in.
public enum Milliseconds {
    public static let second: Int64 = 1000
    public static let minute: Int64 = 60 * second
    public static let hour: Int64 = 60 * minute
    public static let day: Int64 = 24 * hour
}

/// Lengths of time as `Duration`, the unit-free type the rules and the
/// configuration are written in, against instants, which count whole
/// milliseconds.
extension Instant {
    /// `self` moved by `duration` (to the millisecond, toward zero),
    /// saturating as `adding(milliseconds:)` does.
    public func adding(_ duration: Duration) -> Instant {
        adding(milliseconds: duration.wholeMilliseconds)
    }

    public static func + (instant: Instant, duration: Duration) -> Instant {
        instant.adding(duration)
    }

    public static func - (instant: Instant, duration: Duration) -> Instant {
        instant.adding(.zero - duration)
    }

    /// The time from `earlier` to `self`; negative when `self` is before.
    public func duration(since earlier: Instant) -> Duration {
        .milliseconds(milliseconds(since: earlier))
    }
}

/// A reading of a clock that the limits count time on: the agent's wall
/// clock (`Instant`) or the app's monotonic one. A limit asks only how long
/// from one reading to another and where a reading plus a length falls.
public protocol Moment: Sendable, Equatable {
    /// The time from `earlier` to `self`; negative when `self` is before.
    func duration(since earlier: Self) -> Duration
    static func + (moment: Self, duration: Duration) -> Self
}

extension Instant: Moment {}

extension Duration {
    /// The duration in whole milliseconds, rounded toward zero, saturating
    /// at `Int64`'s bounds: the unit of instants, the store and the bus.
    public var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        if overflow { return seconds > 0 ? .max : .min }
        let (sum, overflowAgain) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
        if overflowAgain { return scaled > 0 ? .max : .min }
        return sum
    }

    /// The duration in whole seconds, the nearest (a half away from zero):
    /// for what a person reads, and for timers that count seconds.
    public var roundedSeconds: Int64 {
        let milliseconds = wholeMilliseconds
        let half: Int64 = milliseconds < 0 ? -500 : 500
        let (sum, overflow) = milliseconds.addingReportingOverflow(half)
        return (overflow ? milliseconds : sum) / 1000
    }
}
