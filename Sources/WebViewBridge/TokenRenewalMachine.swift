import SleepTimerCore

/// When the bridge renews the token of a timer it mirrored, decided as a
/// value so that a unit test can walk it: at once when the agent says the
/// token expires soon, with at most one renewal of a timer in flight, and at
/// most one per `minimumInterval` after a token was issued (a platform whose
/// tokens live shorter than the agent's lead would otherwise make every new
/// token due the moment it arrives). A renewal that failed for a passing
/// reason is tried again after a growing pause, until the token runs out.
struct TokenRenewalMachine {
    struct Settings: Equatable {
        /// The least time from a token's issue to its renewal.
        var minimumInterval: Duration = .seconds(30)
        /// The pause after a failed renewal: half a minute, doubling up to five.
        var retryBackoff = Backoff(first: .seconds(30), longest: .seconds(5 * 60))
    }

    /// Whether a failed renewal is worth another try.
    enum Failure {
        /// The platform could not be reached, or was busy or failing.
        case passing
        /// The timer is closed, the session refused, or the agent refused
        /// the token: asking again cannot help.
        case lasting
    }

    /// How a renewal the platform refused with `status` failed, by the
    /// rule the completion reads the same answers with.
    static func failure(refusedWith status: Int) -> Failure {
        CompletionReplyRule.isWorthRetrying(status: status) ? .passing : .lasting
    }

    /// What the machine knows of one timer whose token the bridge handed over.
    struct Renewal: Equatable {
        var issuedAt: Instant
        var expiresAt: Instant
        var inFlight = false
        /// The agent said "expiring" while a renewal was in flight: about
        /// the token that renewal brings (the agent signals before it
        /// answers the Mirror), so it counts once that renewal is over.
        var expiringMeanwhile = false
        /// The expiry of the token the last "expiring" was about: the
        /// agent says it once per token, and a repeat changes nothing.
        var warnedFor: Instant?
        var plannedAt: Instant?
        var failures = 0
    }

    struct State: Equatable {
        /// The timers whose token the bridge handed over, by id.
        fileprivate(set) var timers: [TimerID: Renewal] = [:]
    }

    let settings: Settings
    private(set) var state = State()

    init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// Whether the timer is one whose token the bridge handed over.
    func knows(_ id: TimerID) -> Bool { state.timers[id] != nil }

    /// A token is being handed to the agent for the timer, by the WebView's
    /// upsert or by a renewal: before the Mirror call, since the agent may
    /// say the new token expires soon before it answers.
    mutating func issued(_ id: TimerID, at now: Instant, expiresAt: Instant) {
        var timer = state.timers[id] ?? Renewal(issuedAt: now, expiresAt: expiresAt)
        timer.issuedAt = now
        timer.expiresAt = expiresAt
        timer.failures = 0
        // A renewal planned for the earlier token is moot.
        timer.plannedAt = nil
        state.timers[id] = timer
    }

    enum ExpiringAction: Equatable {
        /// Upsert the timer with a token request now.
        case renewNow
        /// Ask again at this moment (`due(_:now:)` then says what to do).
        case renewAt(Instant)
    }

    /// The agent said the timer's token that expires at `expiresAt` expires
    /// soon. About a token older than the last one handed over, or said
    /// again, it changes nothing; nil too for a timer not ours, or one with
    /// a renewal in flight or planned.
    mutating func expiring(_ id: TimerID, expiresAt: Instant, now: Instant) -> ExpiringAction? {
        guard var timer = state.timers[id], expiresAt >= timer.expiresAt, timer.warnedFor != expiresAt else { return nil }
        timer.warnedFor = expiresAt
        state.timers[id] = timer
        return expiring(id, now: now)
    }

    private mutating func expiring(_ id: TimerID, now: Instant) -> ExpiringAction? {
        guard var timer = state.timers[id], timer.plannedAt == nil else { return nil }
        guard !timer.inFlight else {
            timer.expiringMeanwhile = true
            state.timers[id] = timer
            return nil
        }
        let earliest = timer.issuedAt + settings.minimumInterval
        if now < earliest {
            timer.plannedAt = earliest
            state.timers[id] = timer
            return .renewAt(earliest)
        }
        timer.inFlight = true
        state.timers[id] = timer
        return .renewNow
    }

    enum DueAction: Equatable {
        /// Upsert the timer with a token request now.
        case renewNow
    }

    /// A planned moment came; nil when nothing was planned for the timer
    /// any more (a fresh token came, or it was forgotten).
    mutating func due(_ id: TimerID, now: Instant) -> DueAction? {
        guard var timer = state.timers[id], timer.plannedAt != nil, !timer.inFlight else { return nil }
        timer.plannedAt = nil
        timer.inFlight = true
        state.timers[id] = timer
        return .renewNow
    }

    enum SettledAction: Equatable {
        /// Upsert the timer with a token request now.
        case renewNow
        /// Ask again at this moment (`due(_:now:)` then says what to do).
        case renewAt(Instant)
    }

    /// The renewal in flight is over: renewed (`issued` has the new token),
    /// or not tried for want of a live session. An "expiring" that came
    /// meanwhile is taken now.
    mutating func settled(_ id: TimerID, now: Instant) -> SettledAction? {
        guard var timer = state.timers[id] else { return nil }
        timer.inFlight = false
        let expiring = timer.expiringMeanwhile
        timer.expiringMeanwhile = false
        state.timers[id] = timer
        guard expiring else { return nil }
        switch self.expiring(id, now: now) {
        case nil: return nil
        case .renewNow?: return .renewNow
        case .renewAt(let moment)?: return .renewAt(moment)
        }
    }

    enum FailedAction: Equatable {
        /// Ask again at this moment (`due(_:now:)` then says what to do).
        case renewAt(Instant)
    }

    /// The renewal in flight failed. Nil: not tried again, since the
    /// failure lasts (the timer is forgotten) or the token runs out first.
    mutating func failed(_ id: TimerID, _ failure: Failure, now: Instant) -> FailedAction? {
        guard var timer = state.timers[id] else { return nil }
        guard failure == .passing else {
            state.timers[id] = nil
            return nil
        }
        timer.inFlight = false
        timer.expiringMeanwhile = false
        timer.failures += 1
        let next = now + settings.retryBackoff.wait(afterFailures: timer.failures)
        guard next < timer.expiresAt else {
            state.timers[id] = timer
            return nil
        }
        timer.plannedAt = next
        state.timers[id] = timer
        return .renewAt(next)
    }

    /// The timer left the desktop (completed, removed, reconciled, purged)
    /// or the session that mirrored it ended.
    mutating func timerLeft(_ id: TimerID) {
        state.timers[id] = nil
    }

    /// The session ended or changed user or platform: every timer of this
    /// run is forgotten.
    mutating func sessionEnded() {
        state.timers = [:]
    }
}
