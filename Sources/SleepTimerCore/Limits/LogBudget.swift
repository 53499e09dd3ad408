/// When a refusal is written to the log: at most one line per caller and
/// period (a minute), carrying how many refusals it stands for. A caller
/// that sends bad calls by the thousand must not fill the journal, whose
/// per-unit limit would then drop the program's real lines; a person
/// reading the log still learns who was refused, for what, and how often.
///
/// The clock is given to each call. The callers kept are bounded: a caller
/// whose period has ended and who has nothing held back is forgotten, and
/// callers beyond the bound share one budget.
public struct LogBudget: Equatable, Sendable {
    public let period: Duration
    public let maximumCallers: Int
    private var callers: [String: Entry] = [:]
    private var overflow = Entry()

    private struct Entry: Equatable, Sendable {
        var lineAt: Instant?
        var heldBack = 0
    }

    /// One line per caller and minute.
    public static let refusals = LogBudget(period: .seconds(60), maximumCallers: 64)

    /// The name the callers beyond the bound are logged under.
    public static let otherCallers = "other callers"

    public init(period: Duration, maximumCallers: Int) {
        precondition(period > .zero && maximumCallers > 0, "A budget has a period and a caller.")
        self.period = period
        self.maximumCallers = maximumCallers
    }

    public enum Answer: Equatable, Sendable {
        /// Write one line now, for this many refusals: those of this call
        /// and those held back since the caller's last line.
        case log(count: Int)
        /// Write nothing: counted for the caller's next line.
        case holdBack
    }

    /// `count` refusals of `caller` (for example the bad links of one call).
    public mutating func refused(_ count: Int = 1, by caller: String, now: Instant) -> Answer {
        guard count > 0 else { return .holdBack }
        if callers[caller] == nil, callers.count >= maximumCallers {
            callers = callers.filter { !isSpent($0.value, now: now) }
        }
        if callers[caller] == nil, callers.count >= maximumCallers {
            return Self.answer(&overflow, count, now: now, period: period)
        }
        var entry = callers[caller] ?? Entry()
        let answer = Self.answer(&entry, count, now: now, period: period)
        callers[caller] = entry
        return answer
    }

    /// The callers with a budget of their own now.
    public var callersKept: Int { callers.count }

    private func isSpent(_ entry: Entry, now: Instant) -> Bool {
        guard let lineAt = entry.lineAt else { return true }
        let elapsed = now.duration(since: lineAt)
        return entry.heldBack == 0 && (elapsed >= period || elapsed < .zero)
    }

    private static func answer(_ entry: inout Entry, _ count: Int, now: Instant, period: Duration) -> Answer {
        let (total, overflowed) = entry.heldBack.addingReportingOverflow(count)
        let sum = overflowed ? Int.max : total
        if let lineAt = entry.lineAt {
            let elapsed = now.duration(since: lineAt)
            // A clock that went back starts a new period rather than silencing the caller.
            if elapsed >= .zero, elapsed < period {
                entry.heldBack = sum
                return .holdBack
            }
        }
        entry.lineAt = now
        entry.heldBack = 0
        return .log(count: sum)
    }
}
