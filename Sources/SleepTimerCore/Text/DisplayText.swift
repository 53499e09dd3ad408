/// How the locale writes the time of day.
public enum HourCycle: Sendable, Equatable {
    /// 9:41 PM
    case twelveHour
    /// 21:41
    case twentyFourHour
}

/// The words a parent reads on the notification.
public enum DisplayText {
    /// "Asleep since 9:41 PM", in the timer's own time zone.
    public static func asleepSince(_ start: Instant, rules: TimeZoneRules, hourCycle: HourCycle) -> String {
        "Asleep since \(timeOfDay(start, rules: rules, hourCycle: hourCycle))"
    }

    /// "9:41 PM" or "21:41".
    public static func timeOfDay(_ instant: Instant, rules: TimeZoneRules, hourCycle: HourCycle) -> String {
        let seconds = CivilTime.floorDivide(instant.millisecondsSince1970, 1000)
        let local = seconds + Int64(rules.utcOffset(atSecondsSince1970: seconds))
        let secondOfDay = local - CivilTime.floorDivide(local, 86400) * 86400
        let hour = Int(secondOfDay / 3600)
        let minute = Int(secondOfDay / 60 % 60)
        let minuteText = minute < 10 ? "0\(minute)" : "\(minute)"
        switch hourCycle {
        case .twentyFourHour:
            return "\(hour < 10 ? "0\(hour)" : "\(hour)"):\(minuteText)"
        case .twelveHour:
            let twelve = hour % 12 == 0 ? 12 : hour % 12
            return "\(twelve):\(minuteText) \(hour < 12 ? "AM" : "PM")"
        }
    }

    /// Elapsed time at minute granularity: "23 min", "1 h 23 min", "2 h".
    /// A start in the future (a clock a little ahead) reads as "0 min".
    public static func elapsed(from start: Instant, to now: Instant) -> String {
        let minutes = max(0, now.milliseconds(since: start)) / Milliseconds.minute
        return duration(minutes: minutes)
    }

    public static func duration(minutes: Int64) -> String {
        let hours = minutes / 60
        let rest = minutes % 60
        if hours == 0 { return "\(rest) min" }
        if rest == 0 { return "\(hours) h" }
        return "\(hours) h \(rest) min"
    }

    /// "Asleep since 9:41 PM · 1 h 23 min".
    public static func runningBody(start: Instant, now: Instant, rules: TimeZoneRules, hourCycle: HourCycle) -> String {
        "\(asleepSince(start, rules: rules, hourCycle: hourCycle)) · \(elapsed(from: start, to: now))"
    }

    /// The day a start fell on, seen from `now` in the same zone.
    public enum StartDay: Sendable, Equatable {
        case today
        case yesterday
        /// 0 Sunday … 6 Saturday.
        case earlier(weekday: Int)
    }

    public static func startDay(_ start: Instant, now: Instant, rules: TimeZoneRules) -> StartDay {
        func localDay(_ instant: Instant) -> Int64 {
            let seconds = CivilTime.floorDivide(instant.millisecondsSince1970, 1000)
            return CivilTime.floorDivide(seconds + Int64(rules.utcOffset(atSecondsSince1970: seconds)), 86400)
        }
        let startDay = localDay(start)
        switch localDay(now) - startDay {
        case ...0: return .today
        case 1: return .yesterday
        // 1970-01-01 was a Thursday.
        default: return .earlier(weekday: Int(((startDay % 7) + 7 + 4) % 7))
        }
    }

    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// What stays true of a running sleep whose text is not updated: "Asleep
    /// since 9:41 PM", "Asleep since yesterday, 9:41 PM", "Asleep since
    /// Monday, 9:41 PM"; no elapsed time, which would go stale.
    public static func staticRunningBody(start: Instant, now: Instant, rules: TimeZoneRules, hourCycle: HourCycle) -> String {
        let time = timeOfDay(start, rules: rules, hourCycle: hourCycle)
        switch startDay(start, now: now, rules: rules) {
        case .today: return "Asleep since \(time)"
        case .yesterday: return "Asleep since yesterday, \(time)"
        case .earlier(let weekday): return "Asleep since \(weekdays[weekday]), \(time)"
        }
    }

    /// Escapes text for the notification body, whose markup is a subset of
    /// XML: the five characters that could open a tag or an entity, written
    /// the way GLib's g_markup_escape_text writes them.
    public static func escapeMarkup(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }
}

extension HourCycle {
    /// The hour cycle of a locale's time format as glibc's
    /// nl_langinfo(T_FMT) gives it: `%r`, `%I` or `%l` mean a twelve-hour
    /// clock (en_US: "%r"), anything else twenty-four hours (de_DE, en_GB,
    /// C: "%T" or "%H:%M:%S").
    public init(posixTimeFormat format: String) {
        let twelveHour = ["%r", "%I", "%l", "%p"].contains { format.contains($0) }
        self = twelveHour ? .twelveHour : .twentyFourHour
    }
}
