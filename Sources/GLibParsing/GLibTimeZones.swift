import CDFLGLib
import SleepTimerCore
import Synchronization

/// Time zone rules from the system's zone files ($TZDIR, or
/// /usr/share/zoneinfo), read by GLib's GTimeZone and kept.
///
/// GTimeZone rather than a reader of our own: GLib, which every program
/// links, already reads TZif files and their POSIX TZ footers; and rather
/// than Foundation's TimeZone, which on Linux needs the ICU data of
/// FoundationInternationalization: megabytes in a process that should stay
/// small. Only zones that exist are cached, so names sent by other
/// processes cannot grow the cache beyond the size of the zone database.
public final class GLibTimeZones: TimeZoneResolving {
    public let path: String
    private let cache = Mutex<[TimeZoneName: TimeZoneRules]>([:])

    /// Largest zone file read; real ones are a few kilobytes.
    static let maximumFileSize = 256 * 1024

    public init(path: String) {
        self.path = path
    }

    /// The directory named by TZDIR, else the standard one (GLib's own
    /// choice too).
    public convenience init(environment: [String: String]) {
        let configured = environment["TZDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        self.init(path: configured ?? "/usr/share/zoneinfo")
    }

    public func rules(for name: TimeZoneName) -> TimeZoneRules? {
        if let cached = cache.withLock({ $0[name] }) { return cached }
        // The file is handed to GLib by its absolute path: a relative
        // identifier that names no file GLib would read as a POSIX TZ rule
        // ("ABC3" is three hours west), and an unknown zone must stay
        // unknown. TimeZoneName's shape keeps the path inside the directory.
        let file = path + "/" + name.identifier
        guard let bytes = try? System.read(file, limit: Self.maximumFileSize + 1),
            bytes.count <= Self.maximumFileSize, ZoneFileCheck.isWhole(bytes),
            let zone = GLibZone(identifier: file)
        else { return nil }
        let rules = TimeZoneRules(utcOffset: zone.utcOffset(atSecondsSince1970:))
        cache.withLock { $0[name] = rules }
        return rules
    }
}

/// One GTimeZone. GTimeZone is immutable once made and its reference count
/// atomic, so one may be read from any thread.
final class GLibZone: @unchecked Sendable {
    private let zone: OpaquePointer

    /// nil when GLib can make no zone of `identifier` (a file path, or a
    /// POSIX TZ rule): g_time_zone_new_identifier returns NULL then.
    init?(identifier: String) {
        guard let zone = g_time_zone_new_identifier(identifier) else { return nil }
        self.zone = zone
    }

    deinit { g_time_zone_unref(zone) }

    /// Seconds east of UTC at `seconds` since the epoch: a universal time
    /// always falls in exactly one interval of the zone.
    @Sendable func utcOffset(atSecondsSince1970 seconds: Int64) -> Int32 {
        g_time_zone_get_offset(zone, g_time_zone_find_interval(zone, G_TIME_TYPE_UNIVERSAL, gint64(seconds)))
    }
}

/// Whether a TZif file (RFC 8536) is whole: its header's counts within
/// bounds, each block and the footer inside the file, each transition's
/// type one the file defines, each type's abbreviation inside the
/// abbreviations, which end with a NUL.
///
/// Not a reader of the zone (GLib reads it), a guard before GLib does:
/// GLib 2.74 trusts the header's counts, and a truncated or damaged file
/// makes it read past the file's end and crash the process. The file is
/// checked as read here and GLib then reads it again from its path; zone
/// files are the system's, replaced whole when tzdata updates.
enum ZoneFileCheck {
    static let headerSize = 44

    private struct Header {
        var version: UInt8
        var counts: [Int]  // isut, isstd, leap, time, type, char

        var timeCount: Int { counts[3] }
        var typeCount: Int { counts[4] }

        func blockSize(timeSize: Int) -> Int {
            timeCount * timeSize + timeCount + typeCount * 6 + counts[5] + counts[2] * (timeSize + 4) + counts[1] + counts[0]
        }
    }

    static func isWhole(_ bytes: [UInt8]) -> Bool {
        guard let first = header(bytes, at: 0) else { return false }
        var start = headerSize
        var end = start + first.blockSize(timeSize: 4)
        guard end <= bytes.count, typesAreSound(bytes, first, at: start, timeSize: 4) else { return false }
        if first.version == 0 { return true }
        // Version 2 and later repeat the data with 64-bit times, then a
        // footer: a TZ rule between two newlines.
        guard let second = header(bytes, at: end) else { return false }
        start = end + headerSize
        end = start + second.blockSize(timeSize: 8)
        guard end < bytes.count, typesAreSound(bytes, second, at: start, timeSize: 8) else { return false }
        return bytes[end] == UInt8(ascii: "\n") && bytes[(end + 1)...].contains(UInt8(ascii: "\n"))
    }

    private static func header(_ bytes: [UInt8], at offset: Int) -> Header? {
        guard bytes.count - offset >= headerSize, bytes[offset..<offset + 4].elementsEqual("TZif".utf8) else { return nil }
        let version: UInt8
        switch bytes[offset + 4] {
        case 0: version = 0
        case UInt8(ascii: "2")...UInt8(ascii: "9"): version = bytes[offset + 4] - UInt8(ascii: "0")
        default: return nil
        }
        // Limits far above any real zone, so that a damaged count cannot
        // make the sizes overflow.
        let limits = [256, 256, 1024, 65536, 256, 4096]
        var counts: [Int] = []
        for (index, limit) in limits.enumerated() {
            let field = offset + 20 + index * 4
            let value = bytes[field..<field + 4].reduce(0) { $0 << 8 | Int($1) }
            guard value <= limit else { return nil }
            counts.append(value)
        }
        guard counts[4] >= 1 else { return nil }
        return Header(version: version, counts: counts)
    }

    /// GLib indexes its types with each transition's byte and copies each
    /// type's abbreviation up to its NUL.
    private static func typesAreSound(_ bytes: [UInt8], _ header: Header, at start: Int, timeSize: Int) -> Bool {
        let indices = start + header.timeCount * timeSize
        let types = indices + header.timeCount
        let abbreviations = types + header.typeCount * 6
        let abbreviationCount = header.counts[5]
        return bytes[indices..<types].allSatisfy { Int($0) < header.typeCount }
            && (0..<header.typeCount).allSatisfy { Int(bytes[types + $0 * 6 + 5]) < abbreviationCount }
            && bytes[abbreviations + abbreviationCount - 1] == 0
    }
}
