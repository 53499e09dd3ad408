import DFLDBus
import DFLTestSupport
import SleepTimerCore
import Testing
@testable import SleepControl

@Suite struct OutputTests {
    @Test func busValuesBecomeJSON() {
        let value = BusValue.vardict([
            ("name", .string("Zoë \"M\"\n")), ("count", .uint32(3)), ("ok", .boolean(true)),
            ("started_at_ms", .int64(-5)), ("ids", .strings(["a"])),
        ])
        #expect(JSONOutput.value(value) == #"{"name":"Zoë \"M\"\n","count":3,"ok":true,"started_at_ms":-5,"ids":["a"]}"#)
        #expect(JSONOutput.array([]) == "[]")
        #expect(JSONOutput.plain(.variant(.string("x"))) == "x")
        let origins = BusValue.strings(["https://api.example", "http://127.0.0.1:8443"])
        #expect(JSONOutput.plain(.variant(origins)) == "https://api.example, http://127.0.0.1:8443")
        #expect(JSONOutput.value(.variant(origins)) == #"["https://api.example","http://127.0.0.1:8443"]"#)
        #expect(JSONOutput.plain(.strings([])) == "")
    }

    @Test func theTableShowsNameStartElapsedAndState() {
        let start = Instant(millisecondsSince1970: 1_795_988_460_000)
        let timer = BusValue.vardict([
            ("timer_id", .string("3f2504e0-4f89-41d3-9a0c-0305e82c3301")), ("baby_name", .string("Maya")),
            ("started_at_ms", .int64(start.millisecondsSince1970)), ("timezone", .string("Etc/UTC")),
            ("state", .string("running")), ("can_complete", .boolean(true)),
        ])
        let text = TimerTable.render([timer], timeFormat: .twelveHour, zones: UTCZones(), now: start.adding(milliseconds: 83 * 60_000))
        #expect(text == "Maya: Asleep since 9:41 PM · 1 h 23 min [running, can complete]\n  3f2504e0-4f89-41d3-9a0c-0305e82c3301\n")
        #expect(TimerTable.render([], timeFormat: .twelveHour) == "No Sleep timers are mirrored on this desktop.\n")
    }

    /// A shortcut's outcome: done exits 0; none or several say which and exit 1.
    @Test func runningOutcomesSayWhatHappened() {
        let completed = SleepControl.runningReply("completed")
        #expect(completed.status == 0)
        #expect(completed.text?.contains("Completed the running Sleep") == true)
        #expect(SleepControl.runningReply("opened").status == 0)
        #expect(SleepControl.runningReply("opened").text == nil)
        let none = SleepControl.runningReply("none")
        #expect(none.status == 1)
        #expect(none.text?.contains("no Sleep is running") == true)
        let several = SleepControl.runningReply("several")
        #expect(several.status == 1)
        #expect(several.text?.contains("several Sleeps are running") == true)
        #expect(SleepControl.runningReply("later").text == "dfl-sleepctl: later")
        #expect(SleepControl.runningReply("later").status == 1)
    }
}
