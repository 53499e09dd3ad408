import DFLTestSupport
import SleepTimerCore
import Testing

@Suite struct TimeFormatTests {
    let utc = TimeZoneRules(fixedOffsetSeconds: 0)
    /// 2026-11-29T21:41:00Z
    let evening = Instant(secondsSince1970: 1_795_988_460)

    private func locale(_ timeFormat: String, _ twelveHour: String, _ am: String, _ pm: String,
                        clock: HourCycle? = nil) -> TimeFormat {
        TimeFormat.locale(timeFormat: timeFormat, twelveHourFormat: twelveHour, am: am, pm: pm,
                          weekdays: TimeFormat.englishWeekdays, clockFormat: clock)
    }

    @Test func americanEnglishIsTwelveHoursWithPMAfterTheTime() {
        let format = locale("%r", "%I:%M:%S %p", "AM", "PM")
        #expect(DisplayText.timeOfDay(evening, rules: utc, timeFormat: format) == "9:41 PM")
    }

    @Test func britishEnglishIsTwentyFourHours() {
        #expect(locale("%T", "%l:%M:%S %P %Z", "am", "pm").hourCycle == .twentyFourHour)
    }

    @Test func aLocaleThatPutsAMAndPMFirstGetsThemFirst() {
        let korean = locale("%H시 %M분 %S초", "%p %I시 %M분 %S초", "오전", "오후", clock: .twelveHour)
        #expect(DisplayText.timeOfDay(evening, rules: utc, timeFormat: korean) == "오후 9:41")
    }

    @Test func theDesktopsTwelveHourClockWinsOverAGermanLocale() {
        let format = locale("%T", "", "", "", clock: .twelveHour)
        #expect(DisplayText.timeOfDay(evening, rules: utc, timeFormat: format) == "9:41 PM")
    }

    @Test func whereTheLocaleHasNoAMAndPMTheCatalogNamesThem() {
        let spanish = DictionaryTranslator(messages: ["time of day\u{4}AM": "a. m.", "time of day\u{4}PM": "p. m."])
        let format = Localization.$scoped.withValue(spanish) { locale("%T", "", "", "", clock: .twelveHour) }
        #expect(DisplayText.timeOfDay(evening, rules: utc, timeFormat: format) == "9:41 p. m.")
    }

    @Test func theDesktopsTwentyFourHourClockWinsOverAnAmericanLocale() {
        #expect(locale("%r", "%I:%M:%S %p", "AM", "PM", clock: .twentyFourHour).hourCycle == .twentyFourHour)
    }

    @Test func theLocalesWeekdayNamesAreUsedAndMissingOnesAreEnglish() {
        let german = ["Sonntag", "Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag"]
        #expect(TimeFormat.locale(timeFormat: "%T", twelveHourFormat: "", am: "", pm: "", weekdays: german).weekdays == german)
        #expect(TimeFormat.locale(timeFormat: "%T", twelveHourFormat: "", am: "", pm: "", weekdays: ["", "", "", "", "", "", ""])
            .weekdays == TimeFormat.englishWeekdays)
        #expect(TimeFormat(hourCycle: .twelveHour, weekdays: ["Sunday"]).weekdays == TimeFormat.englishWeekdays)
    }

    @Test(arguments: [("12h", HourCycle?.some(.twelveHour)), ("24h", .twentyFourHour), ("", nil), ("12", nil)])
    func gnomesClockFormatNamesAnHourCycle(_ setting: String, _ expected: HourCycle?) {
        #expect(HourCycle(clockFormat: setting) == expected)
    }

    @Test(arguments: [("%r", HourCycle.twelveHour), ("%I:%M:%S %p", .twelveHour), ("%l:%M %p", .twelveHour),
                      ("%T", .twentyFourHour), ("%H:%M:%S", .twentyFourHour), ("", .twentyFourHour)])
    func followsTheLocalesTimeFormat(_ format: String, _ expected: HourCycle) {
        #expect(HourCycle(posixTimeFormat: format) == expected)
    }
}
