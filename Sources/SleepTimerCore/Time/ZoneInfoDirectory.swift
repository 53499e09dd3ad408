import Synchronization

/// Time zone rules from the system's zoneinfo directory ($TZDIR, or
/// /usr/share/zoneinfo), parsed once per zone and kept.
///
/// Only zones that exist are cached, so names sent by other processes cannot
/// grow the cache beyond the size of the zone database.
public final class ZoneInfoDirectory: TimeZoneResolving {
    public let path: String
    private let cache = Mutex<[TimeZoneName: TimeZoneRules]>([:])

    /// Largest zone file read; real ones are a few kilobytes.
    static let maximumFileSize = 256 * 1024

    public init(path: String) {
        self.path = path
    }

    /// The directory named by TZDIR, else the standard one.
    public convenience init(environment: [String: String]) {
        let configured = environment["TZDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        self.init(path: configured ?? "/usr/share/zoneinfo")
    }

    public func rules(for name: TimeZoneName) -> TimeZoneRules? {
        if let cached = cache.withLock({ $0[name] }) { return cached }
        guard let bytes = try? System.read(path + "/" + name.identifier, limit: Self.maximumFileSize + 1),
            bytes.count <= Self.maximumFileSize,
            let rules = try? TimeZoneRules(tzif: bytes)
        else { return nil }
        cache.withLock { $0[name] = rules }
        return rules
    }
}
