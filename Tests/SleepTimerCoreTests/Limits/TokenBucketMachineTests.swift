import Testing
@testable import SleepTimerCore

@Suite struct TokenBucketMachineTests {
    let start = Instant(millisecondsSince1970: 1_000_000)

    func at(_ milliseconds: Int64) -> Instant { start.adding(milliseconds: milliseconds) }

    @Test func aNewBucketAllowsTheBurstAtOnceAndRefusesTheNext() {
        var bucket = TokenBucketMachine<Instant>(settings: .init(burst: 3, refill: .milliseconds(1_000)))
        #expect((0..<3).map { _ in bucket.asked(now: start) } == [.allow, .allow, .allow])
        #expect(bucket.asked(now: start) == .refuse)
    }

    @Test func oneTokenComesBackAfterOneRefillPeriodAndNotBefore() {
        var bucket = TokenBucketMachine<Instant>(settings: .init(burst: 2, refill: .milliseconds(1_000)))
        _ = bucket.asked(now: start)
        _ = bucket.asked(now: start)
        #expect(bucket.asked(now: at(999)) == .refuse)
        #expect(bucket.asked(now: at(1_000)) == .allow)
        #expect(bucket.asked(now: at(1_500)) == .refuse)
        #expect(bucket.asked(now: at(2_000)) == .allow)
    }

    @Test func aLongPauseRefillsToTheBurstAndNoFurther() {
        var bucket = TokenBucketMachine<Instant>(settings: .init(burst: 2, refill: .milliseconds(1_000)))
        _ = bucket.asked(now: start)
        _ = bucket.asked(now: start)
        #expect(bucket.isFull(at: at(3_600_000)))
        #expect((0..<3).map { _ in bucket.asked(now: at(3_600_000)) } == [.allow, .allow, .refuse])
    }

    /// Full only once every token is back: a bucket forgotten earlier would
    /// give its caller a new burst.
    @Test func itIsFullOnlyOnceEveryTokenIsBack() {
        var bucket = TokenBucketMachine<Instant>(settings: .init(burst: 2, refill: .milliseconds(1_000)))
        #expect(bucket.isFull(at: start))
        _ = bucket.asked(now: start)
        _ = bucket.asked(now: start)
        #expect(bucket.state.tokens == 0)
        #expect(!bucket.isFull(at: at(1_999)))
        #expect(bucket.isFull(at: at(2_000)))
        #expect(bucket.state.tokens == 0)  // asking it refilled nothing
    }

    @Test func aPartialPeriodIsKeptTowardsTheNextToken() {
        var bucket = TokenBucketMachine<Instant>(settings: .init(burst: 3, refill: .milliseconds(1_000)))
        for _ in 0..<3 { _ = bucket.asked(now: start) }
        #expect(bucket.asked(now: at(1_600)) == .allow) // one token at 1,000; 600 ms kept
        #expect(bucket.asked(now: at(1_900)) == .refuse)
        #expect(bucket.asked(now: at(2_000)) == .allow)
    }

    @Test func aClockThatGoesBackRefillsNothing() {
        var bucket = TokenBucketMachine<Instant>(settings: .init(burst: 1, refill: .milliseconds(1_000)))
        _ = bucket.asked(now: start)
        #expect(bucket.asked(now: at(-3_600_000)) == .refuse)
        #expect(bucket.asked(now: at(-3_600_000 + 999)) == .refuse)
        #expect(bucket.asked(now: at(-3_600_000 + 1_000)) == .allow)
    }

    @Test func aThousandTakesWithinASecondAllowOnlyTheBurst() {
        var bucket = TokenBucketMachine<Instant>(settings: .init(burst: 3, refill: .milliseconds(1_000)))
        let allowed = (0..<1_000).filter { bucket.asked(now: at(Int64($0 % 1_000) / 2)) == .allow }.count
        #expect(allowed == 3)
    }
}
