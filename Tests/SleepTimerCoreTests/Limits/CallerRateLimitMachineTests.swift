import Testing
import SleepTimerCore

@Suite struct CallerRateLimitMachineTests {
    let start = Instant(millisecondsSince1970: 1_000_000)

    @Test func eachCallerHasABurstOfItsOwn() {
        var limit = CallerRateLimitMachine(settings: .init(burst: 2, refill: .milliseconds(1_000), maximumCallers: 8))
        #expect([limit.asked(by: ":1.5", now: start), limit.asked(by: ":1.5", now: start)] == [.allow, .allow])
        #expect(limit.asked(by: ":1.5", now: start) == .refuse)
        #expect(limit.asked(by: ":1.6", now: start) == .allow)
    }

    @Test func callersBeyondTheBoundShareOneBucketWhileTheKeptOnesAreInUse() {
        var limit = CallerRateLimitMachine(settings: .init(burst: 1, refill: .milliseconds(1_000), maximumCallers: 2))
        _ = limit.asked(by: "a", now: start)
        _ = limit.asked(by: "b", now: start)
        #expect(limit.asked(by: "c", now: start) == .allow)
        #expect(limit.asked(by: "d", now: start) == .refuse)
        #expect(limit.callersKept == 2)
    }

    @Test func aCallerWhoseBucketRefilledIsForgottenToMakeRoom() {
        var limit = CallerRateLimitMachine(settings: .init(burst: 1, refill: .milliseconds(1_000), maximumCallers: 2))
        _ = limit.asked(by: "a", now: start)
        _ = limit.asked(by: "b", now: start)
        #expect(limit.asked(by: "c", now: start.adding(milliseconds: 1_000)) == .allow)
        #expect(limit.asked(by: "c", now: start.adding(milliseconds: 1_000)) == .refuse)
        #expect(limit.callersKept == 1)
    }
}

@Suite struct CallerRateLimitAllCallersTests {
    let start = Instant(millisecondsSince1970: 1_000_000)
    let settings = CallerRateLimitMachine.Settings(
        burst: 2, refill: .milliseconds(1_000), maximumCallers: 8,
        allCallers: TokenBucketMachine<Instant>.Settings(burst: 3, refill: .milliseconds(500)))

    @Test func manyCallersTogetherGetNoMoreThanTheBucketOfAll() {
        var limit = CallerRateLimitMachine(settings: settings)
        let answers = ["a", "b", "c", "d", "e"].map { limit.asked(by: $0, now: start) }
        #expect(answers == [.allow, .allow, .allow, .refuse, .refuse])
        #expect(limit.asked(by: "f", now: start.adding(milliseconds: 500)) == .allow)
        #expect(limit.asked(by: "g", now: start.adding(milliseconds: 500)) == .refuse)
    }

    @Test func aCallerRefusedByItsOwnBucketTakesNothingFromAll() {
        var limit = CallerRateLimitMachine(settings: settings)
        _ = limit.asked(by: "a", now: start)
        _ = limit.asked(by: "a", now: start)
        for _ in 0..<100 { #expect(limit.asked(by: "a", now: start) == .refuse) }
        #expect(limit.asked(by: "b", now: start) == .allow)
    }

    @Test func aCallerRefusedByAllKeepsItsOwnToken() {
        var limit = CallerRateLimitMachine(settings: settings)
        for caller in ["a", "b", "c"] { _ = limit.asked(by: caller, now: start) }
        #expect(limit.asked(by: "d", now: start) == .refuse)
        // After all callers' bucket refilled two, "d" still has its burst of two.
        let later = start.adding(milliseconds: 1_000)
        #expect([limit.asked(by: "d", now: later), limit.asked(by: "d", now: later)] == [.allow, .allow])
    }

    @Test func callersBeyondTheBoundAreCountedInAllToo() {
        var limit = CallerRateLimitMachine(settings: .init(
            burst: 5, refill: .milliseconds(1_000), maximumCallers: 1,
            allCallers: TokenBucketMachine<Instant>.Settings(burst: 2, refill: .milliseconds(1_000))))
        #expect(limit.asked(by: "a", now: start) == .allow)
        #expect(limit.asked(by: "b", now: start) == .allow)
        #expect(limit.asked(by: "c", now: start) == .refuse)
    }

    @Test func theOpensSettingsBoundOneCallerAndAllCallers() {
        var limit = CallerRateLimitMachine(settings: .opens)
        let one = (0..<10).map { _ in limit.asked(by: "a", now: start) }.filter { $0 == .allow }.count
        let all = (0..<100).map { limit.asked(by: "caller \($0)", now: start) }.filter { $0 == .allow }.count
        #expect(one == 3)
        #expect(one + all == 6)
    }
}
