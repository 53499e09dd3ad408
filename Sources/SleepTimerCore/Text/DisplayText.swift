/// The words a parent reads on the notification, the panel and the
/// command line: whole sentences with named placeholders, translated
/// before they are filled.
public enum DisplayText {
    /// "Asleep since 9:41 PM", in the timer's own time zone.
    public static func asleepSince(_ start: Instant, rules: TimeZoneRules, timeFormat: TimeFormat) -> String {
        // TRANSLATORS: The body of a running sleep's notification. {time} is
        // when the baby fell asleep ("9:41 PM", "21:41"). We do not know
        // whether the baby is a girl or a boy: prefer a phrasing without
        // gender ("Schläft seit …", "Dort depuis …").
        tr("Asleep since {time}").filling(["time": timeOfDay(start, rules: rules, timeFormat: timeFormat)])
    }

    /// "9:41 PM" or "21:41".
    public static func timeOfDay(_ instant: Instant, rules: TimeZoneRules, timeFormat: TimeFormat) -> String {
        let seconds = CivilTime.floorDivide(instant.millisecondsSince1970, 1000)
        let local = seconds + Int64(rules.utcOffset(atSecondsSince1970: seconds))
        let secondOfDay = local - CivilTime.floorDivide(local, 86400) * 86400
        let hour = Int(secondOfDay / 3600)
        let minute = Int(secondOfDay / 60 % 60)
        let minuteText = minute < 10 ? "0\(minute)" : "\(minute)"
        switch timeFormat.hourCycle {
        case .twentyFourHour:
            return "\(hour < 10 ? "0\(hour)" : "\(hour)"):\(minuteText)"
        case .twelveHour:
            let twelve = hour % 12 == 0 ? 12 : hour % 12
            let symbol = hour < 12 ? timeFormat.amSymbol : timeFormat.pmSymbol
            return timeFormat.symbolFirst ? "\(symbol) \(twelve):\(minuteText)" : "\(twelve):\(minuteText) \(symbol)"
        }
    }

    /// Elapsed time at minute granularity: "23 min", "1 h 23 min", "2 h".
    /// A start in the future (a clock a little ahead) reads as "0 min".
    public static func elapsed(from start: Instant, to now: Instant) -> String {
        let minutes = max(0, now.milliseconds(since: start)) / Milliseconds.minute
        return duration(minutes: minutes)
    }

    /// A duration in hours and minutes, each with the plural form its
    /// number needs in the reader's language.
    public static func duration(minutes: Int64) -> String {
        let hours = minutes / 60
        let rest = minutes % 60
        // TRANSLATORS: Whole hours of a duration ("2 h", or "1 h" followed
        // by the minutes). Words are welcome where they fit ("2 Stunden").
        let hoursText = trn("{count} h", "{count} h", count: Int(hours)).filling(["count": String(hours)])
        // TRANSLATORS: Minutes of a duration ("23 min"); words are welcome
        // ("23 Minuten").
        let minutesText = trn("{count} min", "{count} min", count: Int(rest)).filling(["count": String(rest)])
        if hours == 0 { return minutesText }
        if rest == 0 { return hoursText }
        // TRANSLATORS: A duration of hours and minutes: "1 h 23 min".
        return tr("{hours} {minutes}").filling(["hours": hoursText, "minutes": minutesText])
    }

    /// "Asleep since 9:41 PM · 1 h 23 min".
    public static func runningBody(start: Instant, now: Instant, rules: TimeZoneRules, timeFormat: TimeFormat) -> String {
        // TRANSLATORS: The body of a running sleep's notification, updated
        // every minute: {time} is when the baby fell asleep, {elapsed} how
        // long ago ("1 h 23 min").
        tr("Asleep since {time} · {elapsed}").filling(
            ["time": timeOfDay(start, rules: rules, timeFormat: timeFormat), "elapsed": elapsed(from: start, to: now)])
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

    /// What stays true of a running sleep whose text is not updated: "Asleep
    /// since 9:41 PM", "Asleep since yesterday, 9:41 PM", "Asleep since
    /// Monday, 9:41 PM"; no elapsed time, which would go stale.
    public static func staticRunningBody(start: Instant, now: Instant, rules: TimeZoneRules, timeFormat: TimeFormat) -> String {
        let time = timeOfDay(start, rules: rules, timeFormat: timeFormat)
        switch startDay(start, now: now, rules: rules) {
        case .today:
            return asleepSince(start, rules: rules, timeFormat: timeFormat)
        case .yesterday:
            // TRANSLATORS: A sleep that began yesterday, at {time}.
            return tr("Asleep since yesterday, {time}").filling(["time": time])
        case .earlier(let weekday):
            // TRANSLATORS: A sleep that began on {weekday} (the locale's
            // name of the day, "Monday"), at {time}.
            return tr("Asleep since {weekday}, {time}").filling(["weekday": timeFormat.weekdays[weekday], "time": time])
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
