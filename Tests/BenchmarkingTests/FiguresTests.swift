import Testing
@testable import Benchmarking

@Suite struct FiguresTests {
    @Test func oneBusyRoundDoesNotDecideTheVerdict() {
        // The second round's floor was measured on a quiet moment and the
        // agent's on a busy one: its ratio alone would fail the goal.
        let row = Row("Start", unit: "ms", rounds: [11, 19, 12], floors: [10, 10, 10], goal: .atMost(1.30))
        #expect(abs((row.ratio?.median ?? 0) - 1.2) < 1e-9)
        #expect(row.met == true)
    }

    @Test func aGoalMissedInMostRoundsIsMissed() {
        let row = Row("Start", unit: "ms", rounds: [14, 14, 11], floors: [10, 10, 10], goal: .atMost(1.30))
        #expect(row.met == false)
    }

    @Test func aThroughputIsJudgedFromBelow() {
        let row = Row("List throughput", unit: "calls/s", rounds: [96, 97, 80], floors: [100, 100, 100], goal: .atLeast(0.95))
        #expect(row.met == true)
        #expect(Row("x", unit: "calls/s", rounds: [90, 97, 80], floors: [100, 100, 100], goal: .atLeast(0.95)).met == false)
    }

    @Test func aFixedBoundIsJudgedOnTheFiguresMedianWhateverTheFloor() {
        let row = Row("Switches", unit: "switches", rounds: [0, 1, 0], floors: [5, 5, 5], goal: .atMostValue(0))
        #expect(row.met == true)
    }

    @Test func aReportedFigureAndAFigureWithoutFloorsAreNotJudged() {
        #expect(Row("Ping", unit: "µs", rounds: [80]).met == nil)
        #expect(Row("List", unit: "µs", rounds: [80], goal: .atMost(1.1)).met == nil)
    }

    @Test func aRoundWithoutAFloorIsLeftOutOfTheRatios() {
        let row = Row("x", unit: "KiB", rounds: [10, 12, .nan], floors: [5, 0, 5], goal: .atMost(2))
        #expect(row.ratios == [2])
    }
}
