import Foundation

/// Measured values of one figure, in the unit the figure is reported in.
struct Samples {
    let values: [Double]

    init(_ values: [Double]) {
        self.values = values.sorted()
    }

    var isEmpty: Bool { values.isEmpty }
    var count: Int { values.count }
    var minimum: Double { values.first ?? .nan }
    var maximum: Double { values.last ?? .nan }

    func percentile(_ fraction: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let rank = fraction * Double(values.count - 1)
        let low = Int(rank.rounded(.down))
        let high = min(low + 1, values.count - 1)
        return values[low] + (values[high] - values[low]) * (rank - Double(low))
    }

    var median: Double { percentile(0.5) }
    var p99: Double { percentile(0.99) }
}

/// The exponent b of cost ≈ a·n^b, by least squares on logarithms: 1 is
/// linear, less is better than linear.
func fittedExponent(_ points: [(n: Double, cost: Double)]) -> Double {
    let usable = points.filter { $0.n > 0 && $0.cost > 0 }
    guard usable.count >= 2 else { return .nan }
    let xs = usable.map { log($0.n) }
    let ys = usable.map { log($0.cost) }
    let meanX = xs.reduce(0, +) / Double(xs.count)
    let meanY = ys.reduce(0, +) / Double(ys.count)
    var numerator = 0.0
    var denominator = 0.0
    for (x, y) in zip(xs, ys) {
        numerator += (x - meanX) * (y - meanY)
        denominator += (x - meanX) * (x - meanX)
    }
    return denominator == 0 ? .nan : numerator / denominator
}

/// Clocks: monotonic for durations inside this process, wall clock (ns
/// since the epoch) to compare with another process's timestamps.
enum Clock {
    static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    static func wallNanoseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}

/// A number as a person reads it: whole above 100, one decimal above 10,
/// two below.
func format(_ value: Double) -> String {
    if value.isNaN { return "—" }
    if abs(value) >= 100 { return String(Int(value.rounded())) }
    if abs(value) >= 10 { return String(format: "%.1f", value) }
    return String(format: "%.2f", value)
}
