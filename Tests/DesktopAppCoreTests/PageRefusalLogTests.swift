@testable import DesktopAppCore
import SleepTimerCore
import Testing

/// The window's refusals through the agent's log limiter, on the app's
/// monotonic clock: a line per key and minute, saying how many it stands
/// for, and a shared line for keys beyond those kept.
@Suite struct PageRefusalLogTests {
    static let minute = Duration.seconds(60).wholeMilliseconds

    @Test func oneKeyIsQuietWithinItsMinuteAndItsNextLineCountsWhatWasHeldBack() {
        var log = LogBudgetMachine<MonotonicInstant>.pageRefusals()
        #expect(log.line("evil", for: "https://evil.example", at: moment(1_000)) == "evil")
        #expect(log.line("evil", for: "https://evil.example", at: moment(1_000 + Self.minute - 1)) == nil)
        #expect(log.line("other", for: "https://other.example", at: moment(1_001)) == "other")
        #expect(log.line("evil", for: "https://evil.example", at: moment(1_000 + Self.minute))
            == "evil" + AppLogText.timesSinceLastLine(2))
    }

    @Test func keysBeyondThoseKeptShareOneLineAMinuteUntilTheKeptOnesAreSpent() {
        var log = LogBudgetMachine<MonotonicInstant>.pageRefusals()
        for n in 0..<256 {
            #expect(log.line("k\(n)", for: "k\(n)", at: moment(0)) == "k\(n)")
        }
        #expect(log.line("new", for: "new", at: moment(1)) == "new")
        #expect(log.line("newer", for: "newer", at: moment(2)) == nil)
        // A minute on, the kept keys are spent and forgotten: a new key has
        // a line of its own again.
        #expect(log.line("newest", for: "newest", at: moment(Self.minute)) == "newest")
        #expect(log.callersKept == 1)
    }
}
