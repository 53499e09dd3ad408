import SleepTimerCore

/// Every zone is UTC: text with a time of day then reads the same on any
/// machine, whatever its own zone.
public struct UTCZones: TimeZoneResolving {
    public init() {}

    public func rules(for name: TimeZoneName) -> TimeZoneRules? { TimeZoneRules(fixedOffsetSeconds: 0) }
}
