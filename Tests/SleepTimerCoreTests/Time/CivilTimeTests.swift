import Testing
@testable import SleepTimerCore

@Suite struct CivilTimeTests {
    @Test func civilDatesRoundTrip() {
        for days in stride(from: Int64(-800_000), through: 800_000, by: 997) {
            let date = CivilTime.civilDate(daysSince1970: days)
            #expect(CivilTime.daysSince1970(year: date.year, month: date.month, day: date.day) == days)
        }
        #expect(CivilTime.weekday(daysSince1970: 0) == 4)
        #expect(CivilTime.weekday(daysSince1970: -1) == 3)
    }
}
