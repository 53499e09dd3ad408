import DFLTestSupport
import Testing
import SleepTimerCore

@Suite struct BackoffTests {
    let backoff = Backoff(first: .milliseconds(250), longest: .seconds(30))

    @Test func theWaitDoublesFromTheFirstUpToTheLongest() {
        let waits = (1...9).map { backoff.wait(afterFailures: $0) }
        #expect(waits == [250, 500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000].map { .milliseconds($0) })
    }

    @Test func noFailureCountsAsTheFirst() {
        #expect(backoff.wait(afterFailures: 0) == .milliseconds(250))
        #expect(backoff.wait(afterFailures: -3) == .milliseconds(250))
    }

    @Test func anyCountOfFailuresStaysAtTheLongest() {
        #expect(backoff.wait(afterFailures: .max) == .seconds(30))
        #expect(Backoff(first: .seconds(5), longest: .seconds(5)).wait(afterFailures: 4) == .seconds(5))
    }

    @Test func aFirstWaitOfAFractionOfASecondDoublesExactly() {
        let minute = Backoff(first: .seconds(60) / 32, longest: .seconds(60))
        #expect((1...7).map { minute.wait(afterFailures: $0).wholeMilliseconds } == [1875, 3750, 7500, 15_000, 30_000, 60_000, 60_000])
    }

    /// Full jitter: every draw lies between zero and the wait, the draws
    /// reach both ends, and the same seed draws the same waits.
    @Test func theJitteredWaitSpansZeroToTheWaitAndRepeatsFromItsSeed() {
        var random = SplitMix64(seed: 3)
        let draws = (0..<2000).map { _ in backoff.jitteredWait(afterFailures: 3, using: &random) }
        #expect(draws.allSatisfy { $0 >= .zero && $0 <= .seconds(1) })
        #expect(draws.min()! < .milliseconds(50))
        #expect(draws.max()! > .milliseconds(950))
        var again = SplitMix64(seed: 3)
        #expect((0..<2000).map { _ in backoff.jitteredWait(afterFailures: 3, using: &again) } == draws)
    }
}
