import Testing
@testable import Benchmarking

@Suite struct ReportTests {
    private let rows = [
        Row("List (3 timers), p50", unit: "µs", rounds: [200, 210, 190], floorName: "C Echo", floors: [150, 160, 140],
            goal: .atMost(1.10)),
    ]

    @Test func aNewRunKeepsTheHandWrittenReadingAndReplacesTheTable() {
        let earlier = Report.render([Row("Old figure", unit: "µs", rounds: [1])], notes: [], quick: false, rounds: 3, seconds: 1)
            + "\n\(Report.analysisHeading)\n\nList is slower than Echo because it builds dictionaries.\n"
        let text = Report.render(rows, notes: ["a note"], quick: false, rounds: 3, seconds: 2, keeping: earlier)
        #expect(text.contains("| List (3 timers), p50 | 200 · 210 · 190 µs | 150 · 160 · 140 µs (C Echo) |"))
        #expect(!text.contains("Old figure"))
        #expect(text.hasSuffix("\(Report.analysisHeading)\n\nList is slower than Echo because it builds dictionaries.\n"))
        #expect(text.components(separatedBy: Report.analysisHeading).count == 2)
    }

    @Test func withoutAnEarlierReadingThereIsNone() {
        let text = Report.render(rows, notes: [], quick: true, rounds: 2, seconds: 1, keeping: "# Benchmarks\n\nno reading here\n")
        #expect(!text.contains(Report.analysisHeading))
        #expect(!text.contains("no reading here"))
    }

    @Test func theRatioIsTheMedianOfThePerRoundRatiosWithTheirSpread() {
        let text = Report.render(rows, notes: [], quick: false, rounds: 3, seconds: 1)
        // 200/150, 210/160, 190/140: 1.33, 1.31, 1.36.
        #expect(text.contains("| 1.33 (1.31–1.36) | ≤ 1.10 × floor | **no** |"))
    }
}
