import SleepTimerCore

/// When the bridge renews the token of a timer it mirrored, decided as a
/// value so that a unit test can walk it: at once when the agent says the
/// token expires soon, with at most one renewal of a timer in flight, and at
/// most one per `minimumInterval` after a token was issued (a platform whose
/// tokens live shorter than the agent's lead would otherwise make every new
/// token due the moment it arrives). A renewal that failed for a passing
/// reason is tried again after a growing pause, until the token runs out.
struct TokenRenewals {
    enum Decision: Equatable {
        /// Upsert the timer with a token request now.
        case renewNow
        /// Ask again at this moment (`due(_:now:)` then says what to do).
        case renewAt(Instant)
        /// Nothing to do: not a timer of ours, a renewal already in flight
        /// or planned, or one that cannot succeed.
        case nothing
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
        CompletionReply.isWorthRetrying(status: status) ? .passing : .lasting
    }

    static let minimumInterval: Duration = .seconds(30)
    /// The pause after a failed renewal: half a minute, doubling up to five.
    static let retryBackoff = Backoff(first: .seconds(30), longest: .seconds(5 * 60))

    private struct Timer {
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

    private var timers: [TimerID: Timer] = [:]

    /// Whether the timer is one whose token the bridge handed over.
    func knows(_ id: TimerID) -> Bool { timers[id] != nil }

    /// A token is being handed to the agent for the timer, by the WebView's
    /// upsert or by a renewal: before the Mirror call, since the agent may
    /// say the new token expires soon before it answers.
    mutating func issued(_ id: TimerID, at now: Instant, expiresAt: Instant) {
        var timer = timers[id] ?? Timer(issuedAt: now, expiresAt: expiresAt)
        timer.issuedAt = now
        timer.expiresAt = expiresAt
        timer.failures = 0
        // A renewal planned for the earlier token is moot.
        timer.plannedAt = nil
        timers[id] = timer
    }

    /// The agent said the timer's token that expires at `expiresAt` expires
    /// soon. About a token older than the last one handed over, or said
    /// again, it changes nothing.
    mutating func expiring(_ id: TimerID, expiresAt: Instant, now: Instant) -> Decision {
        guard var timer = timers[id], expiresAt >= timer.expiresAt, timer.warnedFor != expiresAt else { return .nothing }
        timer.warnedFor = expiresAt
        timers[id] = timer
        return expiring(id, now: now)
    }

    private mutating func expiring(_ id: TimerID, now: Instant) -> Decision {
        guard var timer = timers[id], timer.plannedAt == nil else { return .nothing }
        guard !timer.inFlight else {
            timer.expiringMeanwhile = true
            timers[id] = timer
            return .nothing
        }
        let earliest = timer.issuedAt + Self.minimumInterval
        if now < earliest {
            timer.plannedAt = earliest
            timers[id] = timer
            return .renewAt(earliest)
        }
        timer.inFlight = true
        timers[id] = timer
        return .renewNow
    }

    /// A planned moment came.
    mutating func due(_ id: TimerID, now: Instant) -> Decision {
        guard var timer = timers[id], timer.plannedAt != nil, !timer.inFlight else { return .nothing }
        timer.plannedAt = nil
        timer.inFlight = true
        timers[id] = timer
        return .renewNow
    }

    /// The renewal in flight is over: renewed (`issued` has the new token),
    /// or not tried for want of a live session. An "expiring" that came
    /// meanwhile is taken now.
    mutating func settled(_ id: TimerID, now: Instant) -> Decision {
        guard var timer = timers[id] else { return .nothing }
        timer.inFlight = false
        let expiring = timer.expiringMeanwhile
        timer.expiringMeanwhile = false
        timers[id] = timer
        return expiring ? self.expiring(id, now: now) : .nothing
    }

    /// The renewal in flight failed.
    mutating func failed(_ id: TimerID, _ failure: Failure, now: Instant) -> Decision {
        guard var timer = timers[id] else { return .nothing }
        guard failure == .passing else {
            timers[id] = nil
            return .nothing
        }
        timer.inFlight = false
        timer.expiringMeanwhile = false
        timer.failures += 1
        let next = now + Self.retryBackoff.wait(afterFailures: timer.failures)
        guard next < timer.expiresAt else {
            timers[id] = timer
            return .nothing
        }
        timer.plannedAt = next
        timers[id] = timer
        return .renewAt(next)
    }

    /// The timer left the desktop (completed, removed, reconciled, purged)
    /// or the session that mirrored it ended.
    mutating func forget(_ id: TimerID) {
        timers[id] = nil
    }

    mutating func forgetAll() {
        timers = [:]
    }
}
