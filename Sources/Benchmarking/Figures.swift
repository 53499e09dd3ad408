/// How a figure is judged. A goal against a floor is judged on the median
/// of the per-round ratios (figure ÷ floor, both measured in the same
/// round), so that one busy moment on a shared machine moves one round, not
/// the verdict.
enum Goal: Equatable {
    /// At most `factor` × the floor of the same round.
    case atMost(Double)
    /// At least `factor` × the floor of the same round (a throughput).
    case atLeast(Double)
    /// The figure itself (the median of its rounds) is at most this.
    case atMostValue(Double)
    /// Reported, not judged.
    case reported

    var text: String {
        switch self {
        case .atMost(let factor): return "≤ \(String(format: "%.2f", factor)) × floor"
        case .atLeast(let factor): return "≥ \(Int((factor * 100).rounded())) % of floor"
        case .atMostValue(let value): return "≤ \(format(value))"
        case .reported: return "reported"
        }
    }
}

/// One line of the report: a figure of the agent in each round, beside its
/// floor measured in the same rounds.
struct Row {
    let figure: String
    let unit: String
    /// The figure in each round: the median of that round's samples, or
    /// its one reading.
    let rounds: [Double]
    /// What the floor is; shown alone when there are no floor values.
    let floorName: String
    /// The floor in each round, as many as `rounds`; empty when there is none.
    let floors: [Double]
    let goal: Goal
    /// Replaces the goal's own words (a reported figure with a remark).
    var goalText: String?

    init(_ figure: String, unit: String, rounds: [Double], floorName: String = "—", floors: [Double] = [],
         goal: Goal = .reported, goalText: String? = nil) {
        self.figure = figure
        self.unit = unit
        self.rounds = rounds
        self.floorName = floorName
        self.floors = floors
        self.goal = goal
        self.goalText = goalText
    }

    /// Figure ÷ floor, round by round (rounds without a floor value left out).
    var ratios: [Double] {
        zip(rounds, floors).compactMap { value, floor in floor > 0 && !value.isNaN ? value / floor : nil }
    }

    var ratio: Samples? { ratios.isEmpty ? nil : Samples(ratios) }

    var met: Bool? {
        switch goal {
        case .atMost(let factor): return ratio.map { $0.median <= factor }
        case .atLeast(let factor): return ratio.map { $0.median >= factor }
        case .atMostValue(let value): return rounds.isEmpty ? nil : Samples(rounds).median <= value
        case .reported: return nil
        }
    }
}
