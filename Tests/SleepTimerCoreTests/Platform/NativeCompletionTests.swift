import SleepTimerCore
import Testing

/// The platform's timestamps as the core writes them.
@Suite struct NativeCompletionTests {
    /// Read back by GLibISO8601 in GLibParsingTests.
    @Test func writesThePlatformsForm() {
        let instant = Instant(millisecondsSince1970: 1_796_535_000_123)
        #expect(ISO8601.format(instant) == "2026-12-06T05:30:00.123Z")
        #expect(ISO8601.format(Instant(millisecondsSince1970: -1)) == "1969-12-31T23:59:59.999Z")
        #expect(ISO8601.format(Instant(millisecondsSince1970: 1_709_164_800_090)) == "2024-02-29T00:00:00.090Z")
    }
}
