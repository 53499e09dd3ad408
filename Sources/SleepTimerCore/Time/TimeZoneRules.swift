/// The UTC offsets of one time zone over time: all the display needs of a
/// zone is its offset at an instant (it never shows abbreviations).
///
/// The offsets come from whoever resolved the zone: the programs read the
/// system's zone files through GLib's GTimeZone (the GLibParsing target),
/// tests hand in zones of their own. The core holds no zone file parser:
/// GLib, which every program links already, has one.
public struct TimeZoneRules: Sendable {
    private let offset: @Sendable (Int64) -> Int32

    /// A zone whose offset at each moment (in seconds since the epoch) is
    /// what `utcOffset` answers, in seconds east of UTC.
    public init(utcOffset: @escaping @Sendable (_ secondsSince1970: Int64) -> Int32) {
        offset = utcOffset
    }

    /// A zone with one fixed offset, for tests and for `Etc/` style zones
    /// built in code.
    public init(fixedOffsetSeconds: Int32) {
        offset = { _ in fixedOffsetSeconds }
    }

    /// Seconds east of UTC in effect at `seconds` since the epoch.
    public func utcOffset(atSecondsSince1970 seconds: Int64) -> Int32 {
        offset(seconds)
    }

    public func utcOffset(at instant: Instant) -> Int32 {
        utcOffset(atSecondsSince1970: CivilTime.floorDivide(instant.millisecondsSince1970, 1000))
    }
}
