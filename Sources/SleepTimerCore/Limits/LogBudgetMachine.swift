/// When a refusal is written to the log: at most one line per caller and
/// period (a minute), carrying how many refusals it stands for. A caller
/// that sends bad calls by the thousand must not fill the journal, whose
/// per-unit limit would then drop the program's real lines; a person
/// reading the log still learns who was refused, for what, and how often.
///
/// The clock is given to each event, read on whichever clock the caller
/// counts on (`Time`: the agent's wall clock, the app's monotonic one).
/// The callers kept are bounded: a caller
/// whose period has ended and who has nothing held back is forgotten, and
/// callers beyond the bound share one budget. Lines of all callers together
/// are bounded too (a bucket of lines), so that thirty callers do not write
/// thirty lines a minute: a caller's line that finds it empty is held back,
/// its count kept for its next line.
public struct LogBudgetMachine<Time: Moment>: Equatable, Sendable {
    public struct Settings: Equatable, Sendable {
        /// One line per caller in each period at most.
        public let period: Duration
        /// The callers with a budget of their own at most.
        public let maximumCallers: Int
        /// The lines of all callers together; nil: no bound beyond each
        /// caller's.
        public let linesInAll: TokenBucketMachine<Time>.Settings?

        public init(period: Duration, maximumCallers: Int, linesInAll: TokenBucketMachine<Time>.Settings? = nil) {
            precondition(period > .zero && maximumCallers > 0, "A budget has a period and a caller.")
            self.period = period
            self.maximumCallers = maximumCallers
            self.linesInAll = linesInAll
        }

        /// One line per caller and minute; all callers together ten lines
        /// at once, then one each six seconds.
        public static var refusals: Settings {
            Settings(period: .seconds(60), maximumCallers: 64, linesInAll: TokenBucketMachine.Settings(burst: 10, refill: .seconds(6)))
        }
    }

    /// One caller's budget.
    public struct Entry: Equatable, Sendable {
        /// When its last line was written.
        public fileprivate(set) var lineAt: Time?
        /// The refusals counted since then, for its next line.
        public fileprivate(set) var heldBack = 0
    }

    /// What the budget remembers between events.
    public struct State: Equatable, Sendable {
        /// The callers with a budget of their own.
        public fileprivate(set) var callers: [String: Entry] = [:]
        /// The budget the callers beyond the bound share.
        public fileprivate(set) var overflow = Entry()
        /// The lines of all callers together, when the settings bound them.
        public fileprivate(set) var lines: TokenBucketMachine<Time>?
    }

    /// The name the callers beyond the bound are logged under.
    public static var otherCallers: String { "other callers" }

    public let settings: Settings
    private(set) var state = State()

    public init(settings: Settings) {
        self.settings = settings
        state.lines = settings.linesInAll.map(TokenBucketMachine.init(settings:))
    }

    public enum RefusedAction: Equatable, Sendable {
        /// Write one line now, for this many refusals: those of this call
        /// and those held back since the caller's last line.
        case log(count: Int)
        /// Write nothing: counted for the caller's next line.
        case holdBack
    }

    /// `caller` was refused `count` times at `now` (for example the bad
    /// links of one call).
    public mutating func refused(_ count: Int = 1, by caller: String, now: Time) -> RefusedAction {
        guard count > 0 else { return .holdBack }
        if state.callers[caller] == nil, state.callers.count >= settings.maximumCallers {
            state.callers = state.callers.filter { !isSpent($0.value, now: now) }
        }
        if state.callers[caller] == nil, state.callers.count >= settings.maximumCallers {
            var shared = state.overflow
            let answer = action(&shared, count, now: now)
            state.overflow = shared
            return answer
        }
        var entry = state.callers[caller] ?? Entry()
        let answer = action(&entry, count, now: now)
        state.callers[caller] = entry
        return answer
    }

    public enum PeriodEndedAction: Equatable, Sendable {
        /// Write one line now for this many, all held back.
        case log(count: Int)
    }

    /// The shell's timer for `caller`'s period fired: what was held back is
    /// written now rather than at the caller's next event, which may never
    /// come (the last change of a flood is logged when the flood stops).
    /// nil when nothing is held back or the period has not ended.
    public mutating func periodEnded(for caller: String, now: Time) -> PeriodEndedAction? {
        let own = state.callers[caller] != nil
        var entry = state.callers[caller] ?? state.overflow
        guard entry.heldBack > 0, let lineAt = entry.lineAt else { return nil }
        let elapsed = now.duration(since: lineAt)
        guard elapsed >= settings.period || elapsed < .zero else { return nil }
        let count = entry.heldBack
        entry.lineAt = now
        entry.heldBack = 0
        if own { state.callers[caller] = entry } else { state.overflow = entry }
        return .log(count: count)
    }

    /// The callers with a budget of their own now.
    public var callersKept: Int { state.callers.count }

    private func isSpent(_ entry: Entry, now: Time) -> Bool {
        guard let lineAt = entry.lineAt else { return entry.heldBack == 0 }
        let elapsed = now.duration(since: lineAt)
        return entry.heldBack == 0 && (elapsed >= settings.period || elapsed < .zero)
    }

    private mutating func action(_ entry: inout Entry, _ count: Int, now: Time) -> RefusedAction {
        let (total, overflowed) = entry.heldBack.addingReportingOverflow(count)
        let sum = overflowed ? Int.max : total
        if let lineAt = entry.lineAt {
            let elapsed = now.duration(since: lineAt)
            // A clock that went back starts a new period rather than silencing the caller.
            if elapsed >= .zero, elapsed < settings.period {
                entry.heldBack = sum
                return .holdBack
            }
        }
        if var lines = state.lines {
            let allowed = lines.asked(now: now)
            state.lines = lines
            guard allowed == .allow else {
                entry.heldBack = sum
                return .holdBack
            }
        }
        entry.lineAt = now
        entry.heldBack = 0
        return .log(count: sum)
    }
}
