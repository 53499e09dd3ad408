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

    @Test func whatFollowsTheNameIsMeasuredFromTheNameRoundByRound() {
        var measured = Measurements()
        for (named, answered, floorNamed, floorAnswered) in [(18.0, 23.0, 13.0, 13.5), (20.0, 26.0, 14.0, 14.25)] {
            measured.add(.startAgent, named)
            measured.add(.firstAnswerAgent, answered)
            measured.add(.startFloor, floorNamed)
            measured.add(.firstAnswerFloor, floorAnswered)
        }
        let rows = Benchmark.rows(measured, scale: [:], counts: Benchmark.Counts())
        let afterName = rows.first { $0.figure.hasPrefix("Name to the first call answered") }
        #expect(afterName?.rounds == [5, 6])
        #expect(afterName?.floors == [0.5, 0.25])
    }

    @Test func theDesktopAppIsJudgedAgainstMiniBrowserOfTheSameRound() {
        var measured = Measurements()
        for (app, browser) in [(950.0, 900.0), (1300.0, 1200.0), (980.0, 700.0)] {
            measured.add(.pageLoadedApp, app)
            measured.add(.pageLoadedBrowser, browser)
        }
        let row = Benchmark.rows(measured, scale: [:], counts: Benchmark.Counts())
            .first { $0.figure == "Desktop app: start to the page's load event" }
        #expect(row?.met == true)
    }
}
