import Testing
import SleepTimerCore

@Suite struct ClockOffsetTests {
    /// 2026-11-29 21:41:00 UTC, the second a Date header of
    /// "Sun, 29 Nov 2026 21:41:00 GMT" names.
    static let second = Instant(secondsSince1970: 1_795_988_460)
    static let header = "Sun, 29 Nov 2026 21:41:00 GMT"

    /// The desktop's moments of sending and receiving when the platform,
    /// `offset` ahead, answered at `phase` ms into the header's second,
    /// `outbound` ms after the request left and `inbound` ms before the
    /// answer arrived.
    private func exchange(offset: Int64, phase: Int64, outbound: Int64, inbound: Int64) -> (Instant, Instant) {
        let answeredDesktop = Self.second.adding(milliseconds: phase - offset)
        return (answeredDesktop.adding(milliseconds: -outbound), answeredDesktop.adding(milliseconds: inbound))
    }

    @Test(arguments: [0, 90_000, -90_000, 1_234, -86_400_000] as [Int64])
    func theTrueOffsetLiesWithinTheEstimatesUncertainty(_ offset: Int64) throws {
        for phase in [0, 1, 499, 500, 999] as [Int64] {
            for (outbound, inbound) in [(0, 0), (3, 2), (40, 400), (2_000, 10)] as [(Int64, Int64)] {
                let (sent, received) = exchange(offset: offset, phase: phase, outbound: outbound, inbound: inbound)
                let estimate = try #require(ClockOffsetEstimate(dateHeader: Self.header, sentAt: sent, receivedAt: received))
                #expect((estimate.milliseconds - offset).magnitude <= estimate.uncertainty.magnitude,
                        "offset \(offset), phase \(phase), trip \(outbound)+\(inbound): \(estimate)")
            }
        }
    }

    @Test func aPlatformNinetySecondsAheadOnLoopbackReadsAsNinetySecondsWithinHalfASecond() throws {
        let (sent, received) = exchange(offset: 90_000, phase: 300, outbound: 1, inbound: 1)
        let estimate = try #require(ClockOffsetEstimate(dateHeader: Self.header, sentAt: sent, receivedAt: received))
        #expect(estimate.milliseconds == 90_000 + 200)
        #expect(estimate.uncertainty == 501)
    }

    @Test func takesTheMiddleOfTheSecondAndOfTheRequest() throws {
        let sent = Self.second.adding(milliseconds: 100)
        let estimate = try #require(ClockOffsetEstimate(dateHeader: Self.header, sentAt: sent,
                                                        receivedAt: sent.adding(milliseconds: 800)))
        // 21:41:00.500 on the platform's side, 21:41:00.100 + 400 on ours.
        #expect(estimate.milliseconds == 0)
        #expect(estimate.uncertainty == 900)
    }

    @Test func readsTheObsoleteDateFormsTooAndToleratesSpaces() throws {
        let sent = Self.second
        for header in ["Sunday, 29-Nov-26 21:41:00 GMT", "Sun Nov 29 21:41:00 2026", "  Sun, 29 Nov 2026 21:41:00 GMT "] {
            let estimate = try #require(ClockOffsetEstimate(dateHeader: header, sentAt: sent, receivedAt: sent), "\(header)")
            #expect(estimate.milliseconds == 500)
        }
    }

    @Test(arguments: ["", "yesterday", "1795902060", "Sun, 29 Nov 2026 21:41:00 CET", "Sun, 31 Nov 2026 21:41:00 GMT"])
    func givesNoEstimateForAHeaderThatIsNoHTTPDate(_ header: String) {
        #expect(ClockOffsetEstimate(dateHeader: header, sentAt: Self.second, receivedAt: Self.second) == nil)
    }

    /// The completion's reading of an answer's Date, as its transport
    /// makes it: the least the offset can be.
    private func earliest(_ date: String?, receivedAt: Instant, roundTrip: Int64 = 0) -> Duration? {
        date.flatMap {
            ClockOffsetEstimate(dateHeader: $0, sentAt: receivedAt.adding(milliseconds: -roundTrip), receivedAt: receivedAt)?.earliest
        }
    }

    @Test func theDateOfAnAnswerGivesTheLeastThePlatformsClockCanBeAhead() {
        let now = Self.second
        // The platform wrote 21:39:30 before the answer arrived at 21:41:00.
        #expect(earliest("Sun, 29 Nov 2026 21:39:30 GMT", receivedAt: now) == .milliseconds(-90_000))
        #expect(earliest("Sun, 29 Nov 2026 21:42:30 GMT", receivedAt: now) == .milliseconds(90_000))
        #expect(earliest("yesterday", receivedAt: now) == nil)
        #expect(earliest(nil, receivedAt: now) == nil)
    }

    @Test(arguments: [0, 1, 2, 3, 999, 2_000] as [Int64])
    func theLeastOffsetIsTheSecondsStartMinusTheArrivalWhateverTheRoundTrip(_ roundTrip: Int64) {
        #expect(earliest(Self.header, receivedAt: Self.second.adding(milliseconds: 700), roundTrip: roundTrip) == .milliseconds(-700))
    }

    @Test func givesNoEstimateWhenTheAnswerArrivedBeforeTheRequestLeft() {
        #expect(ClockOffsetEstimate(dateHeader: Self.header, sentAt: Self.second,
                                    receivedAt: Self.second.adding(milliseconds: -1)) == nil)
    }
}
