/// How the locale writes the time of day.
public enum HourCycle: Sendable, Equatable {
    /// 9:41 PM
    case twelveHour
    /// 21:41
    case twentyFourHour
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

    /// GNOME's org.gnome.desktop.interface clock-format ("12h" or "24h");
    /// nil for anything else.
    public init?(clockFormat: String) {
        switch clockFormat {
        case "12h": self = .twelveHour
        case "24h": self = .twentyFourHour
        default: return nil
        }
    }
}

/// How a time of day and a weekday are written: the clock the reader uses
/// (the locale's LC_TIME, or the desktop's own setting), the locale's
/// AM and PM and the side of the time they go on, and its weekday names.
public struct TimeFormat: Sendable, Equatable {
    public var hourCycle: HourCycle
    public var amSymbol: String
    public var pmSymbol: String
    /// AM/PM before the time ("오후 9:41"), as the locale's twelve-hour
    /// format puts it.
    public var symbolFirst: Bool
    /// Sunday first, as nl_langinfo's DAY_1 … DAY_7.
    public var weekdays: [String]

    public static let englishWeekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    public init(
        hourCycle: HourCycle, amSymbol: String = "AM", pmSymbol: String = "PM", symbolFirst: Bool = false,
        weekdays: [String] = TimeFormat.englishWeekdays
    ) {
        self.hourCycle = hourCycle
        self.amSymbol = amSymbol
        self.pmSymbol = pmSymbol
        self.symbolFirst = symbolFirst
        self.weekdays = weekdays.count == 7 ? weekdays : Self.englishWeekdays
    }

    /// "9:41 PM", in English.
    public static let twelveHour = TimeFormat(hourCycle: .twelveHour)
    /// "21:41", in English.
    public static let twentyFourHour = TimeFormat(hourCycle: .twentyFourHour)

    /// The format of a locale from what nl_langinfo says of it under
    /// LC_TIME: T_FMT, T_FMT_AMPM, AM_STR, PM_STR and DAY_1 … DAY_7.
    /// `clockFormat`, the desktop's own choice where it has one, wins over
    /// the locale's hour cycle. Where a twelve-hour clock meets a locale
    /// that names no AM and PM (de_DE), the catalog's words for them are
    /// used; a missing weekday name falls back to English.
    public static func locale(
        timeFormat: String, twelveHourFormat: String, am: String, pm: String, weekdays: [String],
        clockFormat: HourCycle? = nil
    ) -> TimeFormat {
        let amPosition = twelveHourFormat.firstRange(of: "%p") ?? twelveHourFormat.firstRange(of: "%P")
        let hourPosition = ["%I", "%l", "%H", "%k"].compactMap { twelveHourFormat.firstRange(of: $0)?.lowerBound }.min()
        let symbolFirst = amPosition.map { amRange in hourPosition.map { amRange.lowerBound < $0 } ?? false } ?? false
        return TimeFormat(
            hourCycle: clockFormat ?? HourCycle(posixTimeFormat: timeFormat),
            // TRANSLATORS: Before noon, on a twelve-hour clock, where the
            // locale has no word of its own for it ("9:41 AM").
            amSymbol: am.isEmpty ? trc("time of day", "AM") : am,
            // TRANSLATORS: After noon, on a twelve-hour clock, where the
            // locale has no word of its own for it ("9:41 PM").
            pmSymbol: pm.isEmpty ? trc("time of day", "PM") : pm,
            symbolFirst: symbolFirst,
            weekdays: weekdays.contains(where: \.isEmpty) ? englishWeekdays : weekdays)
    }
}
