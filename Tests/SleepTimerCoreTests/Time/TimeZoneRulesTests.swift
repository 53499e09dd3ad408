import FoundationEssentials
import Testing
@testable import SleepTimerCore

@Suite struct TimeZoneRulesTests {
    let zones = ZoneInfoDirectory(path: "/usr/share/zoneinfo")

    private func offset(_ zone: String, _ seconds: Int64) throws -> Int32 {
        let name = try #require(TimeZoneName(zone))
        let rules = try #require(zones.rules(for: name))
        return rules.utcOffset(atSecondsSince1970: seconds)
    }

    /// Expected values computed with Python's zoneinfo from the same files.
    @Test(arguments: [
        ("America/New_York", Int64(1_782_907_200), Int32(-14400)),
        ("America/New_York", 4_118_126_400, -14400),  // 2100: past the file's table, from the footer rule
        ("America/New_York", 4_102_488_000, -18000),
        ("Australia/Sydney", 1_768_435_200, 39600),
        ("Australia/Sydney", 1_784_073_600, 36000),
        ("Australia/Sydney", 3_788_121_600, 39600),  // 2090, southern summer across the new year
        ("Australia/Sydney", 3_803_760_000, 36000),
        ("Asia/Kolkata", 1_795_910_400, 19800),
        ("America/St_Johns", 1_768_003_200, -12600),
        ("Pacific/Chatham", 1_768_003_200, 49500),
        ("America/New_York", 1_772_953_199, -18000),  // one second before the 2026 spring change
        ("America/New_York", 1_772_953_200, -14400),
        ("America/New_York", 2_215_061_999, -18000),  // 2040, footer rule, both sides of each change
        ("America/New_York", 2_215_062_000, -14400),
        ("America/New_York", 2_235_621_599, -14400),
        ("America/New_York", 2_235_621_600, -18000),
        ("Europe/Dublin", 3_787_689_600, 0),  // negative daylight saving time in the footer
        ("Europe/Dublin", 3_803_328_000, 3600),
        ("Europe/Berlin", 1_795_988_460, 3600),
        ("America/Sao_Paulo", 1_795_988_460, -10800),
        ("Etc/UTC", 1_795_988_460, 0),
    ])
    func offsetsMatchTheReferenceImplementation(_ zone: String, _ seconds: Int64, _ expected: Int32) throws {
        #expect(try offset(zone, seconds) == expected)
    }

    @Test func unknownZonesAndNonZoneFilesHaveNoRules() {
        #expect(zones.rules(for: TimeZoneName("Mars/Olympus_Mons")!) == nil)
        #expect(zones.rules(for: TimeZoneName("iso3166")!) == nil)
        #expect(zones.rules(for: TimeZoneName("America")!) == nil)
    }

    @Test func namesThatCouldLeaveTheDirectoryAreRefused() {
        #expect(TimeZoneName("../etc/passwd") == nil)
        #expect(TimeZoneName("/etc/localtime") == nil)
        #expect(TimeZoneName("Europe//Berlin") == nil)
        #expect(TimeZoneName("Europe/./Berlin") == nil)
        #expect(TimeZoneName(String(repeating: "A", count: 65)) == nil)
        #expect(TimeZoneName("Etc/GMT+5") != nil)
        #expect(TimeZoneName("America/Port-au-Prince") != nil)
    }

    @Test func damagedFilesAreRefusedNotTrusted() throws {
        let path = "/usr/share/zoneinfo/America/New_York"
        let bytes = Array(try Data(contentsOf: URL(filePath: path)))
        #expect(throws: Never.self) { try TimeZoneRules(tzif: bytes) }
        #expect(throws: TimeZoneRules.ParseError.self) { try TimeZoneRules(tzif: Array(bytes.prefix(100))) }
        #expect(throws: TimeZoneRules.ParseError.notTZif) { try TimeZoneRules(tzif: Array("not a zone file".utf8)) }
        var huge = bytes
        huge[32...35] = [0x7F, 0xFF, 0xFF, 0xFF]  // an absurd transition count
        #expect(throws: TimeZoneRules.ParseError.self) { try TimeZoneRules(tzif: huge) }
        #expect(throws: TimeZoneRules.ParseError.self) { try TimeZoneRules(tzif: []) }
    }

    @Test func posixRulesParseTheirExtensions() throws {
        let quoted = try #require(PosixTimeZoneRule("<+0330>-3:30"))
        #expect(quoted.standardOffset == 12600)
        #expect(quoted.daylight == nil)
        let negativeTime = try #require(PosixTimeZoneRule("<-02>2<-01>,M3.5.0/-1,M10.5.0/0"))
        #expect(negativeTime.daylight?.startTime == -3600)
        let julian = try #require(PosixTimeZoneRule("XXX3YYY,J60/2,300/2"))
        #expect(julian.daylight?.start == .julianIgnoringLeapDay(60))
        #expect(julian.daylight?.end == .zeroBasedDayOfYear(300))
        #expect(PosixTimeZoneRule("EST5EDT,M13.1.0,M11.1.0") == nil)
        #expect(PosixTimeZoneRule("E5") == nil)
        #expect(PosixTimeZoneRule("EST5EDT,M3.2.0") == nil)
        #expect(PosixTimeZoneRule("EST5 trailing") == nil)
    }

    @Test func civilDatesRoundTrip() {
        for days in stride(from: Int64(-800_000), through: 800_000, by: 997) {
            let date = CivilTime.civilDate(daysSince1970: days)
            #expect(CivilTime.daysSince1970(year: date.year, month: date.month, day: date.day) == days)
        }
        #expect(CivilTime.weekday(daysSince1970: 0) == 4)
        #expect(CivilTime.weekday(daysSince1970: -1) == 3)
    }
}
