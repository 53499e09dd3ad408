import Testing
@testable import Benchmarking

@Suite struct ReportTests {
    private let rows = [
        Row(figure: "List (3 timers) p50", unit: "µs", samples: Samples([200, 210, 190]), floorName: "C Echo",
            floor: 150, goal: "≤ 1.15 × floor", met: false),
    ]

    @Test func aNewRunKeepsTheHandWrittenReadingAndReplacesTheTable() {
        let earlier = Report.render(
            [Row(figure: "Old figure", unit: "µs", samples: Samples([1]), floorName: "x", floor: nil, goal: "—", met: nil)],
            notes: [], quick: false, seconds: 1)
            + "\n\(Report.analysisHeading)\n\nList is slower than Echo because it builds dictionaries.\n"
        let text = Report.render(rows, notes: ["a note"], quick: false, seconds: 2, keeping: earlier)
        #expect(text.contains("| List (3 timers) p50 | 200 µs"))
        #expect(!text.contains("Old figure"))
        #expect(text.hasSuffix("\(Report.analysisHeading)\n\nList is slower than Echo because it builds dictionaries.\n"))
        #expect(text.components(separatedBy: Report.analysisHeading).count == 2)
    }

    @Test func withoutAnEarlierReadingThereIsNone() {
        let text = Report.render(rows, notes: [], quick: true, seconds: 1, keeping: "# Benchmarks\n\nno reading here\n")
        #expect(!text.contains(Report.analysisHeading))
        #expect(!text.contains("no reading here"))
    }
}
