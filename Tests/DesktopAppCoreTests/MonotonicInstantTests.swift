import DesktopAppCore
import Testing

/// A moment of the app's monotonic clock, `milliseconds` from its start.
func moment(_ milliseconds: Int64) -> MonotonicInstant {
    MonotonicInstant(milliseconds: milliseconds)
}

@Suite struct MonotonicInstantTests {
    @Test func theDurationSinceAnEarlierMomentIsTheirDifference() {
        #expect(moment(2_500).duration(since: moment(1_000)) == .milliseconds(1_500))
        #expect(moment(1_000).duration(since: moment(2_500)) == .milliseconds(-1_500))
        #expect(moment(7).duration(since: moment(7)) == .zero)
    }

    @Test func aMomentPlusALengthMovesByItsMillisecondsAndStopsAtTheBounds() {
        #expect(moment(1_000) + .milliseconds(1_500) == moment(2_500))
        #expect(moment(1_000) + .milliseconds(-1_500) == moment(-500))
        #expect(moment(.max - 1) + .seconds(1) == moment(.max))
        #expect(moment(.min + 1) + .seconds(-1) == moment(.min))
    }

    @Test func momentsAreOrderedByTheirMilliseconds() {
        #expect(moment(1) < moment(2))
        #expect(!(moment(2) < moment(2)))
        #expect(moment(-5) < moment(0))
    }
}
