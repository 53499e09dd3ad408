/// The HTTP Retry-After header (RFC 9110, section 10.2.3): either a number
/// of seconds or an HTTP-date, which recipients must accept in all three
/// formats (IMF-fixdate, the obsolete RFC 850 form, and asctime).
public enum RetryAfter {
    /// The wait from `now`, to the millisecond, or nil for anything that is
    /// not a valid Retry-After value, which the caller then ignores. A date
    /// in the past means no wait.
    public static func parse(_ value: String, now: Instant) -> Duration? {
        let trimmed = value.trimmingSpacesAndTabs()
        guard !trimmed.isEmpty, trimmed.utf8.count <= 64 else { return nil }
        if trimmed.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            // More than ten digits is more than three centuries: treat as the
            // largest wait and let the retry rule bound it.
            guard trimmed.utf8.count <= 10, let seconds = Int64(trimmed) else { return .milliseconds(Int64.max / 2) }
            return .seconds(seconds)
        }
        guard let date = HTTPDate.parse(trimmed, now: now) else { return nil }
        return max(.zero, date.duration(since: now))
    }
}

/// Parses the three HTTP-date formats.
enum HTTPDate {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let shortDays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let longDays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

    static func parse(_ text: String, now: Instant) -> Instant? {
        let fields = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
        if fields.count == 6, fields[0].hasSuffix(","), shortDays.contains(String(fields[0].dropLast())),
            fields[5] == "GMT", let day = digits(fields[1], count: 2...2),
            let month = months.firstIndex(of: fields[2]), let year = digits(fields[3], count: 4...4)
        {
            return make(year: year, month: month + 1, day: Int(day), time: fields[4])
        }
        // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
        if fields.count == 4, fields[0].hasSuffix(","), longDays.contains(String(fields[0].dropLast())),
            fields[3] == "GMT"
        {
            let parts = fields[1].split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 3, let day = digits(parts[0], count: 2...2),
                let month = months.firstIndex(of: String(parts[1])),
                let twoDigitYear = digits(parts[2], count: 2...2)
            else { return nil }
            // RFC 9110: a two-digit year that would be more than 50 years
            // in the future is the most recent past year with those digits.
            let currentYear = CivilTime.civilDate(
                daysSince1970: CivilTime.floorDivide(now.millisecondsSince1970, Milliseconds.day)
            ).year
            var year = currentYear - currentYear % 100 + twoDigitYear
            if year + 100 <= currentYear + 50 { year += 100 }
            if year > currentYear + 50 { year -= 100 }
            return make(year: year, month: month + 1, day: Int(day), time: fields[2])
        }
        // asctime: Sun Nov  6 08:49:37 1994
        if fields.count == 5, shortDays.contains(fields[0]), let month = months.firstIndex(of: fields[1]),
            let day = digits(fields[2], count: 1...2), let year = digits(fields[4], count: 4...4)
        {
            return make(year: year, month: month + 1, day: Int(day), time: fields[3])
        }
        return nil
    }

    private static func make(year: Int64, month: Int, day: Int, time: String) -> Instant? {
        let parts = time.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let hour = digits(parts[0], count: 2...2),
            let minute = digits(parts[1], count: 2...2), let second = digits(parts[2], count: 2...2),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second),
            (1...CivilTime.daysInMonth(year: year, month: month)).contains(day),
            (1900...9999).contains(year)
        else { return nil }
        let days = CivilTime.daysSince1970(year: year, month: month, day: day)
        return Instant(secondsSince1970: days * 86400 + hour * 3600 + minute * 60 + second)
    }
}

/// The value of a run of ASCII digits of a length in `count`, or nil; no
/// sign, no spaces.
func digits(_ text: some StringProtocol, count: ClosedRange<Int>) -> Int64? {
    guard count.contains(text.utf8.count),
        text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
    else { return nil }
    return Int64(text)
}

extension String {
    func trimmingSpacesAndTabs() -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
