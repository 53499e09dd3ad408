import Testing
import DFLTestSupport
import GLibParsing
import SleepTimerCore

@Suite struct DisplayTextTests {
    let zones = GLibTimeZones(path: "/usr/share/zoneinfo")
    /// 2026-11-29T21:41:00Z
    let start = Instant(secondsSince1970: 1_795_988_460)

    private func rules(_ zone: String) throws -> TimeZoneRules {
        let name = try #require(TimeZoneName(zone))
        return try #require(zones.rules(for: name))
    }

    @Test func showsTheStartInTheTimersOwnZone() throws {
        #expect(DisplayText.asleepSince(start, rules: try rules("Etc/UTC"), timeFormat: .twelveHour) == "Asleep since 9:41 PM")
        #expect(DisplayText.asleepSince(start, rules: try rules("America/New_York"), timeFormat: .twelveHour)
            == "Asleep since 4:41 PM")
        #expect(DisplayText.asleepSince(start, rules: try rules("Europe/Berlin"), timeFormat: .twentyFourHour)
            == "Asleep since 22:41")
        #expect(DisplayText.asleepSince(start, rules: try rules("Asia/Kolkata"), timeFormat: .twentyFourHour)
            == "Asleep since 03:11")
    }

    @Test func midnightAndNoonReadTheWayPeopleSayThem() {
        let utc = TimeZoneRules(fixedOffsetSeconds: 0)
        let midnight = Instant(secondsSince1970: 1_795_910_400 + 5 * 60)
        let noon = Instant(secondsSince1970: 1_795_910_400 + 12 * 3600)
        #expect(DisplayText.timeOfDay(midnight, rules: utc, timeFormat: .twelveHour) == "12:05 AM")
        #expect(DisplayText.timeOfDay(midnight, rules: utc, timeFormat: .twentyFourHour) == "00:05")
        #expect(DisplayText.timeOfDay(noon, rules: utc, timeFormat: .twelveHour) == "12:00 PM")
        #expect(DisplayText.timeOfDay(noon, rules: utc, timeFormat: .twentyFourHour) == "12:00")
    }

    @Test func minutesFromTenOnHaveNoLeadingZero() {
        let utc = TimeZoneRules(fixedOffsetSeconds: 0)
        let tenPast = Instant(secondsSince1970: 1_795_910_400 + 10 * 60)
        #expect(DisplayText.timeOfDay(tenPast, rules: utc, timeFormat: .twentyFourHour) == "00:10")
        #expect(DisplayText.timeOfDay(tenPast.adding(milliseconds: -60_000), rules: utc, timeFormat: .twentyFourHour) == "00:09")
    }

    @Test func timesBeforeTheEpochStillReadCorrectly() {
        let utc = TimeZoneRules(fixedOffsetSeconds: 0)
        #expect(DisplayText.timeOfDay(Instant(millisecondsSince1970: -1), rules: utc, timeFormat: .twentyFourHour) == "23:59")
    }

    @Test func elapsedTimeIsInWholeMinutes() {
        #expect(DisplayText.elapsed(from: start, to: start.adding(milliseconds: 83 * 60_000 + 59_999)) == "1 h 23 min")
        #expect(DisplayText.elapsed(from: start, to: start.adding(milliseconds: 59_999)) == "0 min")
        #expect(DisplayText.elapsed(from: start, to: start.adding(milliseconds: 23 * 60_000)) == "23 min")
        #expect(DisplayText.elapsed(from: start, to: start.adding(milliseconds: 120 * 60_000)) == "2 h")
        #expect(DisplayText.elapsed(from: start, to: start.adding(milliseconds: -90_000)) == "0 min")
    }

    @Test func durationsTakeThePluralFormOfEachNumber() {
        let german = { (minutes: Int64) in
            Localization.$scoped.withValue(DictionaryTranslator.german) { DisplayText.duration(minutes: minutes) }
        }
        #expect(german(1) == "1 Minute")
        #expect(german(2) == "2 Minuten")
        #expect(german(61) == "1 Stunde 1 Minute")
        #expect(german(122) == "2 Stunden 2 Minuten")
        #expect(german(120) == "2 Stunden")
        #expect(DisplayText.duration(minutes: 61) == "1 h 1 min")
    }

    @Test func anEarlierDayIsNamedAsTheLocaleNamesIt() {
        let format = TimeFormat(hourCycle: .twentyFourHour,
                                weekdays: ["Sonntag", "Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag"])
        // 2026-11-29 was a Sunday; three days later it is Wednesday.
        let body = Localization.$scoped.withValue(DictionaryTranslator.german) {
            DisplayText.staticRunningBody(start: start, now: start.adding(milliseconds: 3 * 86_400_000),
                                          rules: TimeZoneRules(fixedOffsetSeconds: 0), timeFormat: format)
        }
        #expect(body == "Schläft seit Sonntag, 21:41")
    }

    @Test func theBodyJoinsStartAndElapsed() {
        let body = DisplayText.runningBody(
            start: start, now: start.adding(milliseconds: 83 * 60_000), rules: TimeZoneRules(fixedOffsetSeconds: 0),
            timeFormat: .twelveHour)
        #expect(body == "Asleep since 9:41 PM · 1 h 23 min")
    }

    @Test func escapesTheFiveMarkupCharacters() {
        #expect(DisplayText.escapeMarkup(#"<b>Leo</b> & "Mia's""#)
            == "&lt;b&gt;Leo&lt;/b&gt; &amp; &quot;Mia&#39;s&quot;")
        #expect(DisplayText.escapeMarkup("Zoë 👶") == "Zoë 👶")
        #expect(DisplayText.escapeMarkup("&amp;") == "&amp;amp;")
    }
}
