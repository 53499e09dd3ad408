import DFLTestSupport
import Testing
import SleepTimerCore

@Suite struct DurationArithmeticTests {
    let now = Fixtures.now

    @Test func anInstantMovesByADurationToTheMillisecond() {
        #expect(now + .seconds(2) == now.adding(milliseconds: 2000))
        #expect(now - .milliseconds(1500) == now.adding(milliseconds: -1500))
        #expect(now + .microseconds(2999) == now.adding(milliseconds: 2))
        #expect(now.adding(milliseconds: 90_000).duration(since: now) == .seconds(90))
        #expect(now.duration(since: now.adding(milliseconds: 5)) == .milliseconds(-5))
    }

    @Test func farMovesSaturate() {
        #expect((now + .seconds(Int64.max)).millisecondsSince1970 == .max)
        #expect((Instant(millisecondsSince1970: .min + 1) - .seconds(1)).millisecondsSince1970 == .min)
    }

    @Test func durationsInWholeMillisecondsAndRoundedSeconds() {
        #expect(Duration.milliseconds(1875).wholeMilliseconds == 1875)
        #expect(Duration.microseconds(-1500).wholeMilliseconds == -1)
        #expect(Duration.seconds(Int64.max).wholeMilliseconds == .max)
        #expect(Duration.milliseconds(1499).roundedSeconds == 1)
        #expect(Duration.milliseconds(1500).roundedSeconds == 2)
        #expect(Duration.milliseconds(7500).roundedSeconds == 8)
        #expect(Duration.milliseconds(-1500).roundedSeconds == -2)
    }
}
