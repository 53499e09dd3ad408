import Testing
@testable import Benchmarking

@Suite struct StatisticsTests {
    @Test func percentilesInterpolate() {
        let samples = Samples([5, 1, 3, 2, 4])
        #expect(samples.median == 3)
        #expect(samples.minimum == 1)
        #expect(samples.maximum == 5)
        #expect(samples.percentile(0.25) == 2)
        #expect(Samples([1, 2]).median == 1.5)
        #expect(Samples([]).median.isNaN)
    }

    @Test func theExponentOfLinearAndQuadraticCosts() {
        let linear = [10.0, 100, 1000, 10_000].map { (n: $0, cost: 3 * $0) }
        let quadratic = [10.0, 100, 1000].map { (n: $0, cost: $0 * $0) }
        #expect(abs(fittedExponent(linear) - 1) < 1e-9)
        #expect(abs(fittedExponent(quadratic) - 2) < 1e-9)
        #expect(fittedExponent([(n: 10, cost: 1)]).isNaN)
    }

    @Test func numbersAreWrittenForPeople() {
        #expect(format(1234.4) == "1234")
        #expect(format(12.34) == "12.3")
        #expect(format(1.234) == "1.23")
        #expect(format(.nan) == "—")
    }
}
