import SleepTimerCore
import Testing

/// The platform's timestamps: every field of the form is checked, each
/// just inside and just past its bounds.
@Suite struct NativeCompletionTests {
    @Test(arguments: [
        ("2026-12-06T05:30:00Z", 1796535000000),
        ("2026-12-06t05:30:00.5z", 1796535000500),
        ("2026-12-06T05:30:00.123456+02:00", 1796527800123),
        ("2026-12-06T23:59:59-09:30", 1796635799000),
        ("2024-02-29T00:00:00.09Z", 1709164800090),
        ("2026-12-06T05:30:00.00000000000000+23:59", 1796448660000),
    ])
    func readsTheFormThePlatformSends(_ text: String, _ milliseconds: Int64) {
        #expect(ISO8601.parse(text) == Instant(millisecondsSince1970: milliseconds))
    }

    @Test(arguments: [
        "2026-12-06T05:30:00.000000000000000+23:59",
        "2026-12-06T05:30:0Z",
        "2026/12-06T05:30:00Z",
        "2026-12/06T05:30:00Z",
        "2026-12-06 05:30:00Z",
        "2026-12-06T05-30:00Z",
        "2026-12-06T05:30-00Z",
        "2026-12-06T05:3/:00Z",
        "2026-12-06T05:3a:00Z",
        "2026-13-06T05:30:00Z",
        "2026-00-06T05:30:00Z",
        "2026-12-06T24:00:00Z",
        "2026-12-06T05:60:00Z",
        "2026-12-06T05:30:60Z",
        "2026-11-31T05:30:00Z",
        "2025-02-29T05:30:00Z",
        "2026-12-06T05:30:00.Z",
        "2026-12-06T05:30:00.123",
        "2026-12-06T05:30:00+0200",
        "2026-12-06T05:30:00+02-00",
        "2026-12-06T05:30:00+24:00",
        "2026-12-06T05:30:00+00:60",
        "2026-12-06T05:30:00Zjunk",
        "2026-12-06T05:30:00",
        "202;-12-06T05:30:00Z",
        "2026-12-06T05:30:00+02:0",
    ])
    func refusesAnyOtherForm(_ text: String) {
        #expect(ISO8601.parse(text) == nil)
    }

    @Test func whatItWritesItReadsBack() {
        let instant = Instant(millisecondsSince1970: 1_796_535_000_123)
        #expect(ISO8601.format(instant) == "2026-12-06T05:30:00.123Z")
        #expect(ISO8601.parse(ISO8601.format(instant)) == instant)
    }
}
