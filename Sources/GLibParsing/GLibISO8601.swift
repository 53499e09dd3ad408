import CDFLGLib
import SleepTimerCore

/// UTC timestamps in the form the platform sends,
/// `YYYY-MM-DDTHH:MM:SS[.fff…](Z|±HH:MM)`, read by GLib's
/// g_date_time_new_from_iso8601; fractions beyond milliseconds are cut.
///
/// GLib reads the values and their ranges (months, days of the month, leap
/// years, hours, minutes, offsets); the form around them is checked here
/// first, because GLib reads more of ISO 8601 than the platform writes and
/// than the wire format accepts: a space for the `T`, basic and week or
/// ordinal dates, `+0200` and `+02` offsets, a comma before the fraction.
/// Two values GLib takes are refused after it: a 60th second (which GLib
/// makes the 59th) and an offset of 24 hours. GLib reads years from 1 on;
/// the year 0 is refused, as no platform time is that old.
public enum GLibISO8601 {
    public static func parse(_ text: String) -> Instant? {
        var bytes = Array(text.utf8)
        guard hasTheWireForm(bytes) else { return nil }
        // GLib takes only upper-case T and Z; the platform may write either.
        if bytes[10] == UInt8(ascii: "t") { bytes[10] = UInt8(ascii: "T") }
        if bytes[bytes.count - 1] == UInt8(ascii: "z") { bytes[bytes.count - 1] = UInt8(ascii: "Z") }
        guard let time = g_date_time_new_from_iso8601(String(decoding: bytes, as: UTF8.self), nil) else { return nil }
        defer { g_date_time_unref(time) }
        let writtenSecond = Int32(bytes[17] - UInt8(ascii: "0")) * 10 + Int32(bytes[18] - UInt8(ascii: "0"))
        guard g_date_time_get_second(time) == writtenSecond,
            abs(g_date_time_get_utc_offset(time)) < 24 * 3600 * 1_000_000
        else { return nil }
        return Instant(
            millisecondsSince1970: Int64(g_date_time_to_unix(time)) * 1000 + Int64(g_date_time_get_microsecond(time)) / 1000)
    }

    /// Digits, separators and zone at the places the wire form has them;
    /// what the digits say is GLib's to judge.
    static func hasTheWireForm(_ bytes: [UInt8]) -> Bool {
        func isDigit(_ index: Int) -> Bool { bytes[index] >= UInt8(ascii: "0") && bytes[index] <= UInt8(ascii: "9") }
        guard (20...40).contains(bytes.count) else { return false }
        for (index, expected) in "dddd-dd-ddTdd:dd:dd".utf8.enumerated() {
            switch expected {
            case UInt8(ascii: "d"): guard isDigit(index) else { return false }
            case UInt8(ascii: "T"): guard bytes[index] == UInt8(ascii: "T") || bytes[index] == UInt8(ascii: "t") else { return false }
            default: guard bytes[index] == expected else { return false }
            }
        }
        var index = 19
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < bytes.count, isDigit(index) { index += 1 }
            guard index > start else { return false }
        }
        guard index < bytes.count else { return false }
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            return index + 1 == bytes.count
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            return bytes.count - index == 6 && isDigit(index + 1) && isDigit(index + 2) && bytes[index + 3] == UInt8(ascii: ":")
                && isDigit(index + 4) && isDigit(index + 5)
        default:
            return false
        }
    }
}
