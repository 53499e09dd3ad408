import Testing
import SleepTimerCore

@Suite struct TokenBucketTests {
    let start = Instant(millisecondsSince1970: 1_000_000)

    func at(_ milliseconds: Int64) -> Instant { start.adding(milliseconds: milliseconds) }

    @Test func aNewBucketAllowsTheBurstAtOnceAndRefusesTheNext() {
        var bucket = TokenBucket(burst: 3, refill: .milliseconds(1_000))
        #expect((0..<3).map { _ in bucket.take(now: start) } == [.allowed, .allowed, .allowed])
        #expect(bucket.take(now: start) == .refused)
    }

    @Test func oneTokenComesBackAfterOneRefillPeriodAndNotBefore() {
        var bucket = TokenBucket(burst: 2, refill: .milliseconds(1_000))
        _ = bucket.take(now: start)
        _ = bucket.take(now: start)
        #expect(bucket.take(now: at(999)) == .refused)
        #expect(bucket.take(now: at(1_000)) == .allowed)
        #expect(bucket.take(now: at(1_500)) == .refused)
        #expect(bucket.take(now: at(2_000)) == .allowed)
    }

    @Test func aLongPauseRefillsToTheBurstAndNoFurther() {
        var bucket = TokenBucket(burst: 2, refill: .milliseconds(1_000))
        _ = bucket.take(now: start)
        _ = bucket.take(now: start)
        #expect(bucket.isFull(at: at(3_600_000)))
        #expect((0..<3).map { _ in bucket.take(now: at(3_600_000)) } == [.allowed, .allowed, .refused])
    }

    @Test func aPartialPeriodIsKeptTowardsTheNextToken() {
        var bucket = TokenBucket(burst: 3, refill: .milliseconds(1_000))
        for _ in 0..<3 { _ = bucket.take(now: start) }
        #expect(bucket.take(now: at(1_600)) == .allowed) // one token at 1,000; 600 ms kept
        #expect(bucket.take(now: at(1_900)) == .refused)
        #expect(bucket.take(now: at(2_000)) == .allowed)
    }

    @Test func aClockThatGoesBackRefillsNothing() {
        var bucket = TokenBucket(burst: 1, refill: .milliseconds(1_000))
        _ = bucket.take(now: start)
        #expect(bucket.take(now: at(-3_600_000)) == .refused)
        #expect(bucket.take(now: at(-3_600_000 + 999)) == .refused)
        #expect(bucket.take(now: at(-3_600_000 + 1_000)) == .allowed)
    }

    @Test func aThousandTakesWithinASecondAllowOnlyTheBurst() {
        var bucket = TokenBucket(burst: 3, refill: .milliseconds(1_000))
        let allowed = (0..<1_000).filter { bucket.take(now: at(Int64($0 % 1_000) / 2)) == .allowed }.count
        #expect(allowed == 3)
    }
}

@Suite struct CallerRateLimitTests {
    let start = Instant(millisecondsSince1970: 1_000_000)

    @Test func eachCallerHasABurstOfItsOwn() {
        var limit = CallerRateLimit(burst: 2, refill: .milliseconds(1_000), maximumCallers: 8)
        #expect([limit.take(caller: ":1.5", now: start), limit.take(caller: ":1.5", now: start)] == [.allowed, .allowed])
        #expect(limit.take(caller: ":1.5", now: start) == .refused)
        #expect(limit.take(caller: ":1.6", now: start) == .allowed)
    }

    @Test func callersBeyondTheBoundShareOneBucketWhileTheKeptOnesAreInUse() {
        var limit = CallerRateLimit(burst: 1, refill: .milliseconds(1_000), maximumCallers: 2)
        _ = limit.take(caller: "a", now: start)
        _ = limit.take(caller: "b", now: start)
        #expect(limit.take(caller: "c", now: start) == .allowed)
        #expect(limit.take(caller: "d", now: start) == .refused)
        #expect(limit.callersKept == 2)
    }

    @Test func aCallerWhoseBucketRefilledIsForgottenToMakeRoom() {
        var limit = CallerRateLimit(burst: 1, refill: .milliseconds(1_000), maximumCallers: 2)
        _ = limit.take(caller: "a", now: start)
        _ = limit.take(caller: "b", now: start)
        #expect(limit.take(caller: "c", now: start.adding(milliseconds: 1_000)) == .allowed)
        #expect(limit.take(caller: "c", now: start.adding(milliseconds: 1_000)) == .refused)
        #expect(limit.callersKept == 1)
    }
}
