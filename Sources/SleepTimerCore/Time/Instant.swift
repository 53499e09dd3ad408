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
