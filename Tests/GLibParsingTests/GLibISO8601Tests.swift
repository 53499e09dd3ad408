import CDFLGLib
import GLibParsing
import SleepTimerCore
import Testing

/// The platform's timestamps as GLib reads them behind the wire form's
/// check: every field of the form is checked, each just inside and just
/// past its bounds.
@Suite struct GLibISO8601Tests {
    @Test(arguments: [
        ("2026-12-06T05:30:00Z", 1796535000000),
        ("2026-12-06t05:30:00.5z", 1796535000500),
        ("2026-12-06T05:30:00.123456+02:00", 1796527800123),
        ("2026-12-06T23:59:59-09:30", 1796635799000),
        ("2024-02-29T00:00:00.09Z", 1709164800090),
        ("2026-12-06T05:30:00.00000000000000+23:59", 1796448660000),
    ])
    func readsTheFormThePlatformSends(_ text: String, _ milliseconds: Int64) {
        #expect(GLibISO8601.parse(text) == Instant(millisecondsSince1970: milliseconds))
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
        #expect(GLibISO8601.parse(text) == nil)
    }

    @Test func whatTheCoreWritesItReadsBack() {
        let instant = Instant(millisecondsSince1970: 1_796_535_000_123)
        #expect(ISO8601.format(instant) == "2026-12-06T05:30:00.123Z")
        #expect(GLibISO8601.parse(ISO8601.format(instant)) == instant)
        #expect(GLibISO8601.parse(ISO8601.format(Instant(millisecondsSince1970: -1))) == Instant(millisecondsSince1970: -1))
    }

    /// GLib alone reads these (some as another time than written); the
    /// wire form's check and the checks after GLib refuse them all.
    @Test(arguments: [
        "2026-12-06 05:30:00Z", "2026-12-06T05:30:00+0200", "2026-12-06T05:30:00+02", "2026-12-06T05:30:00+24:00",
        "2026-12-06T05:30:60Z", "20261206T053000Z", "2026-340T05:30:00Z", "2026-W49-7T05:30:00Z", "2026-12-06T05:30:00,5Z",
        "2026-12-06T05:30:00.000000000000000+23:59",
    ])
    func whatGLibAloneWouldTakeIsRefused(_ text: String) {
        let glib = g_date_time_new_from_iso8601(text, nil)
        #expect(glib != nil)
        g_date_time_unref(glib)
        #expect(GLibISO8601.parse(text) == nil)
    }
}
