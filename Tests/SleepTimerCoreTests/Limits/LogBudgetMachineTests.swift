import Testing
@testable import SleepTimerCore

@Suite struct LogBudgetMachineTests {
    let start = Instant(millisecondsSince1970: 1_000_000)

    func at(_ milliseconds: Int64) -> Instant { start.adding(milliseconds: milliseconds) }

    @Test func theFirstRefusalOfACallerIsLoggedAtOnce() {
        var budget = LogBudgetMachine<Instant>(settings: .init(period: .milliseconds(60_000), maximumCallers: 8))
        #expect(budget.refused(by: ":1.5", now: start) == .log(count: 1))
    }

    @Test func refusalsWithinThePeriodAreHeldBackAndCountedInTheNextLine() {
        var budget = LogBudgetMachine<Instant>(settings: .init(period: .milliseconds(60_000), maximumCallers: 8))
        _ = budget.refused(by: ":1.5", now: start)
        let held = (1..<10_000).map { budget.refused(by: ":1.5", now: at(Int64($0))) }
        #expect(held.allSatisfy { $0 == .holdBack })
        #expect(budget.refused(by: ":1.5", now: at(59_999)) == .holdBack)
        #expect(budget.refused(by: ":1.5", now: at(60_000)) == .log(count: 10_001))
    }

    @Test func manyRefusalsOfOneCallAreOneLineWithTheirCount() {
        var budget = LogBudgetMachine<Instant>(settings: .init(period: .milliseconds(60_000), maximumCallers: 8))
        #expect(budget.refused(100_000, by: ":1.5", now: start) == .log(count: 100_000))
        #expect(budget.refused(5, by: ":1.5", now: at(1)) == .holdBack)
    }

    @Test func eachCallerHasABudgetOfItsOwn() {
        var budget = LogBudgetMachine<Instant>(settings: .init(period: .milliseconds(60_000), maximumCallers: 8))
        _ = budget.refused(by: ":1.5", now: start)
        #expect(budget.refused(by: ":1.6", now: start) == .log(count: 1))
    }

    @Test func noRefusalIsNoLine() {
        var budget = LogBudgetMachine<Instant>(settings: .init(period: .milliseconds(60_000), maximumCallers: 8))
        #expect(budget.refused(0, by: ":1.5", now: start) == .holdBack)
        #expect(budget.refused(by: ":1.5", now: start) == .log(count: 1))
    }

    @Test func aClockThatGoesBackStartsANewPeriod() {
        var budget = LogBudgetMachine<Instant>(settings: .init(period: .milliseconds(60_000), maximumCallers: 8))
        _ = budget.refused(by: ":1.5", now: start)
        _ = budget.refused(by: ":1.5", now: at(1))
        #expect(budget.refused(by: ":1.5", now: at(-1)) == .log(count: 2))
    }

    @Test func callersBeyondTheBoundShareOneBudget() {
        var budget = LogBudgetMachine<Instant>(settings: .init(period: .milliseconds(60_000), maximumCallers: 2))
        _ = budget.refused(by: "a", now: start)
        _ = budget.refused(by: "b", now: start)
        #expect(budget.refused(by: "c", now: start) == .log(count: 1))
        #expect(budget.refused(by: "d", now: start) == .holdBack)
        #expect(budget.callersKept == 2)
    }

    @Test func aSpentCallerIsForgottenToMakeRoomButOneWithRefusalsHeldBackIsKept() {
        var budget = LogBudgetMachine<Instant>(settings: .init(period: .milliseconds(60_000), maximumCallers: 2))
        _ = budget.refused(by: "a", now: start)
        _ = budget.refused(by: "b", now: start)
        _ = budget.refused(by: "b", now: at(1))
        #expect(budget.refused(by: "c", now: at(60_000)) == .log(count: 1))
        #expect(budget.callersKept == 2)
        #expect(budget.refused(by: "b", now: at(60_001)) == .log(count: 2))
    }

    @Test func aCallerWhosePeriodEndedMakesRoomForANewOneAtTheBound() {
        var budget = LogBudgetMachine<Instant>(settings: .init(period: .milliseconds(60_000), maximumCallers: 1))
        #expect(budget.refused(by: ":1.5", now: start) == .log(count: 1))
        // Exactly a period later :1.5 is spent and gives its place to :1.6,
        #expect(budget.refused(by: ":1.6", now: at(60_000)) == .log(count: 1))
        #expect(budget.callersKept == 1)
        // so a third caller now is the first of the shared budget, logged.
        #expect(budget.refused(by: ":1.7", now: at(60_000)) == .log(count: 1))
        #expect(budget.refused(by: ":1.8", now: at(60_001)) == .holdBack)
    }
}

@Suite struct LogBudgetLinesInAllTests {
    let start = Instant(millisecondsSince1970: 1_000_000)
    let settings = LogBudgetMachine<Instant>.Settings(
        period: .milliseconds(60_000), maximumCallers: 8, linesInAll: TokenBucketMachine<Instant>.Settings(burst: 2, refill: .milliseconds(6_000)))

    func at(_ milliseconds: Int64) -> Instant { start.adding(milliseconds: milliseconds) }

    @Test func manyCallersTogetherWriteNoMoreLinesThanTheBucketOfAll() {
        var budget = LogBudgetMachine<Instant>(settings: settings)
        let answers = ["a", "b", "c", "d"].map { budget.refused(by: $0, now: start) }
        #expect(answers == [.log(count: 1), .log(count: 1), .holdBack, .holdBack])
    }

    @Test func aCallerHeldBackByAllSaysItsCountWithItsNextLine() {
        var budget = LogBudgetMachine<Instant>(settings: settings)
        _ = budget.refused(by: "a", now: start)
        _ = budget.refused(by: "b", now: start)
        #expect(budget.refused(by: "c", now: start) == .holdBack)
        #expect(budget.refused(by: "c", now: at(6_000)) == .log(count: 2))
    }

    @Test func aCallerHeldBackByAllIsNotForgottenToMakeRoom() {
        var budget = LogBudgetMachine<Instant>(settings: .init(
            period: .milliseconds(60_000), maximumCallers: 2, linesInAll: TokenBucketMachine<Instant>.Settings(burst: 1, refill: .milliseconds(60_000))))
        _ = budget.refused(by: "a", now: start)
        #expect(budget.refused(by: "b", now: start) == .holdBack)
        // "a" has spent its period's line; "b" still holds a count.
        _ = budget.refused(by: "c", now: at(60_000))
        #expect(budget.state.callers["b"]?.heldBack == 1)
    }

    @Test func theRefusalsSettingsLetAllCallersTogetherWriteTenLinesAtOnce() {
        var budget = LogBudgetMachine<Instant>(settings: .refusals)
        let lines = (0..<30).map { budget.refused(by: "caller \($0)", now: start) }.filter { $0 != .holdBack }.count
        #expect(lines == 10)
    }
}

/// The period's end writes what was held back, once.
@Suite struct LogBudgetPeriodEndTests {
    let start = Instant(millisecondsSince1970: 1_000_000)

    func at(_ milliseconds: Int64) -> Instant { start.adding(milliseconds: milliseconds) }

    @Test func whatWasHeldBackIsWrittenWhenThePeriodEnds() {
        var budget = LogBudgetMachine<Instant>(settings: .init(period: .milliseconds(5_000), maximumCallers: 1))
        _ = budget.refused(by: "portal", now: start)
        _ = budget.refused(by: "portal", now: at(1))
        _ = budget.refused(by: "portal", now: at(2))
        #expect(budget.periodEnded(for: "portal", now: start) == nil)
        #expect(budget.periodEnded(for: "portal", now: at(4_999)) == nil)
        #expect(budget.periodEnded(for: "portal", now: at(5_000)) == .log(count: 2))
        #expect(budget.periodEnded(for: "portal", now: at(10_001)) == nil)
        // The line starts a period: the next refusal waits for its end.
        #expect(budget.refused(by: "portal", now: at(9_999)) == .holdBack)
        #expect(budget.refused(by: "portal", now: at(10_000)) == .log(count: 2))
    }

    @Test func nothingHeldBackWritesNothing() {
        var budget = LogBudgetMachine<Instant>(settings: .init(period: .milliseconds(5_000), maximumCallers: 1))
        #expect(budget.periodEnded(for: "portal", now: start) == nil)
        _ = budget.refused(by: "portal", now: start)
        #expect(budget.periodEnded(for: "portal", now: at(60_000)) == nil)
    }

    @Test func aClockThatWentBackWritesAtOnce() {
        var budget = LogBudgetMachine<Instant>(settings: .init(period: .milliseconds(5_000), maximumCallers: 1))
        _ = budget.refused(by: "portal", now: start)
        _ = budget.refused(by: "portal", now: at(1))
        #expect(budget.periodEnded(for: "portal", now: at(-1)) == .log(count: 1))
    }

    @Test func theCallersBeyondTheBoundShareTheirBudgetsEnd() {
        var budget = LogBudgetMachine<Instant>(settings: .init(period: .milliseconds(5_000), maximumCallers: 1))
        _ = budget.refused(by: "first", now: start)
        #expect(budget.refused(by: "second", now: start) == .log(count: 1))
        #expect(budget.refused(by: "third", now: at(1)) == .holdBack)
        #expect(budget.periodEnded(for: LogBudgetMachine<Instant>.otherCallers, now: at(5_000)) == .log(count: 1))
        #expect(budget.callersKept == 1)
    }
}
