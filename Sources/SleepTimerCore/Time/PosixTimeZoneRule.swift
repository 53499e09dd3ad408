/// A POSIX TZ rule string such as `EST5EDT,M3.2.0,M11.1.0`, as found in the
/// footer of a TZif file, with RFC 8536's extensions (transition times from
/// -167 to 167 hours).
struct PosixTimeZoneRule: Sendable, Equatable {
    enum DateRule: Sendable, Equatable {
        /// `Jn`: day 1–365, February 29 never counted.
        case julianIgnoringLeapDay(Int)
        /// `n`: day 0–365, February 29 counted in leap years.
        case zeroBasedDayOfYear(Int)
        /// `Mm.w.d`: weekday d (0 = Sunday) of week w (1–4, 5 = last) of month m.
        case monthWeekDay(month: Int, week: Int, weekday: Int)
    }

    struct Daylight: Sendable, Equatable {
        var utcOffset: Int32
        var start: DateRule
        /// Local standard time of day of the switch, in seconds.
        var startTime: Int32
        var end: DateRule
        /// Local daylight time of day of the switch, in seconds.
        var endTime: Int32
    }

    /// Seconds east of UTC. POSIX writes offsets west of UTC as positive;
    /// the parser turns them around.
    var standardOffset: Int32
    var daylight: Daylight?

    init?(_ text: String) {
        var scanner = Scanner(Array(text.utf8))
        guard scanner.skipName(), let standard = scanner.offset(maxHours: 24) else { return nil }
        standardOffset = -standard
        if scanner.isAtEnd {
            daylight = nil
            return
        }
        guard scanner.skipName() else { return nil }
        var daylightOffset = standardOffset + 3600
        if let value = scanner.offset(maxHours: 24) { daylightOffset = -value }
        // POSIX leaves the rule out for the United States' rules; zic always
        // writes one, but the default keeps hand-written strings working.
        var start = DateRule.monthWeekDay(month: 3, week: 2, weekday: 0)
        var end = DateRule.monthWeekDay(month: 11, week: 1, weekday: 0)
        var startTime: Int32 = 7200
        var endTime: Int32 = 7200
        if scanner.take(UInt8(ascii: ",")) {
            guard let parsedStart = scanner.dateRule() else { return nil }
            start = parsedStart
            if scanner.take(UInt8(ascii: "/")) {
                guard let time = scanner.offset(maxHours: 167) else { return nil }
                startTime = time
            }
            guard scanner.take(UInt8(ascii: ",")), let parsedEnd = scanner.dateRule() else { return nil }
            end = parsedEnd
            if scanner.take(UInt8(ascii: "/")) {
                guard let time = scanner.offset(maxHours: 167) else { return nil }
                endTime = time
            }
        }
        guard scanner.isAtEnd else { return nil }
        daylight = Daylight(utcOffset: daylightOffset, start: start, startTime: startTime, end: end, endTime: endTime)
    }

    func utcOffset(atSecondsSince1970 seconds: Int64) -> Int32 {
        guard let daylight else { return standardOffset }
        let year = CivilTime.civilDate(daysSince1970: CivilTime.floorDivide(seconds + Int64(standardOffset), 86400)).year
        let start = Self.transition(year: year, rule: daylight.start, time: daylight.startTime, offsetBefore: standardOffset)
        let end = Self.transition(year: year, rule: daylight.end, time: daylight.endTime, offsetBefore: daylight.utcOffset)
        let inDaylight = start < end ? (seconds >= start && seconds < end) : !(seconds >= end && seconds < start)
        return inDaylight ? daylight.utcOffset : standardOffset
    }

    /// The UTC second at which a rule switches in `year`.
    static func transition(year: Int64, rule: DateRule, time: Int32, offsetBefore: Int32) -> Int64 {
        let day: Int64
        switch rule {
        case .julianIgnoringLeapDay(let n):
            var dayOfYear = Int64(n - 1)
            if CivilTime.isLeapYear(year) && n >= 60 { dayOfYear += 1 }
            day = CivilTime.daysSince1970(year: year, month: 1, day: 1) + dayOfYear
        case .zeroBasedDayOfYear(let n):
            day = CivilTime.daysSince1970(year: year, month: 1, day: 1) + Int64(n)
        case .monthWeekDay(let month, let week, let weekday):
            let first = CivilTime.daysSince1970(year: year, month: month, day: 1)
            let firstWeekday = CivilTime.weekday(daysSince1970: first)
            var dayOfMonth = 1 + (weekday - firstWeekday + 7) % 7 + (week - 1) * 7
            let length = CivilTime.daysInMonth(year: year, month: month)
            while dayOfMonth > length { dayOfMonth -= 7 }
            day = first + Int64(dayOfMonth - 1)
        }
        return day * 86400 + Int64(time) - Int64(offsetBefore)
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var isAtEnd: Bool { index == bytes.count }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// A zone abbreviation: three or more letters, or anything but `>`
        /// between angle brackets.
        mutating func skipName() -> Bool {
            if take(UInt8(ascii: "<")) {
                let start = index
                while index < bytes.count && bytes[index] != UInt8(ascii: ">") { index += 1 }
                guard index - start >= 3, take(UInt8(ascii: ">")) else { return false }
                return true
            }
            let start = index
            while index < bytes.count && isLetter(bytes[index]) { index += 1 }
            return index - start >= 3
        }

        /// `[+-]hh[:mm[:ss]]` in seconds, as written (west positive).
        mutating func offset(maxHours: Int) -> Int32? {
            let saved = index
            var sign: Int32 = 1
            if take(UInt8(ascii: "-")) { sign = -1 } else { _ = take(UInt8(ascii: "+")) }
            guard let hours = number(maxDigits: 3), hours <= maxHours else {
                index = saved
                return nil
            }
            var total = Int32(hours) * 3600
            if take(UInt8(ascii: ":")) {
                guard let minutes = number(maxDigits: 2), minutes < 60 else { return nil }
                total += Int32(minutes) * 60
                if take(UInt8(ascii: ":")) {
                    guard let seconds = number(maxDigits: 2), seconds < 60 else { return nil }
                    total += Int32(seconds)
                }
            }
            return sign * total
        }

        mutating func dateRule() -> DateRule? {
            if take(UInt8(ascii: "J")) {
                guard let n = number(maxDigits: 3), (1...365).contains(n) else { return nil }
                return .julianIgnoringLeapDay(n)
            }
            if take(UInt8(ascii: "M")) {
                guard let month = number(maxDigits: 2), (1...12).contains(month), take(UInt8(ascii: ".")),
                    let week = number(maxDigits: 1), (1...5).contains(week), take(UInt8(ascii: ".")),
                    let weekday = number(maxDigits: 1), (0...6).contains(weekday)
                else { return nil }
                return .monthWeekDay(month: month, week: week, weekday: weekday)
            }
            guard let n = number(maxDigits: 3), (0...365).contains(n) else { return nil }
            return .zeroBasedDayOfYear(n)
        }

        private mutating func number(maxDigits: Int) -> Int? {
            let start = index
            var value = 0
            while index < bytes.count, index - start < maxDigits,
                bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9")
            {
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
            }
            return index > start ? value : nil
        }

        private func isLetter(_ byte: UInt8) -> Bool {
            (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
        }
    }
}

/// Proleptic Gregorian calendar arithmetic on day numbers, after Howard
/// Hinnant's `days_from_civil` and `civil_from_days`.
enum CivilTime {
    static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }

    static func isLeapYear(_ year: Int64) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    static func daysInMonth(year: Int64, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func daysSince1970(year: Int64, month: Int, day: Int) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146097 + dayOfEra - 719468
    }

    static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int, day: Int) {
        let z = days + 719468
        let era = floorDivide(z, 146097)
        let dayOfEra = z - era * 146097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * mp + 2) / 5 + 1)
        let month = Int(mp < 10 ? mp + 3 : mp - 9)
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    /// 0 = Sunday. 1970-01-01 was a Thursday.
    static func weekday(daysSince1970 days: Int64) -> Int {
        Int((days % 7 + 11) % 7)
    }
}
