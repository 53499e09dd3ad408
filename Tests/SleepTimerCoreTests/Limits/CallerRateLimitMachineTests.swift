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
