import SleepTimerCore

/// A mirrored timer's life on the desktop apart from its completion:
/// warned of ahead of its token's expiry (so that an app with a live
/// session renews the token; after a suspend that slept through that
/// moment, once the token has run out), still shown as running once the
/// token has run out (a baby sleeps through the night whatever the token
/// does), and dropped only when no sleep could still be running.
///
/// A recorded completion that is still pending keeps its timer as it is:
/// the completion machine decides what becomes of it.
public struct TimerLifecycleMachine: Sendable {
    public struct Settings: Sendable, Equatable {
        /// How long before a token expires the agent asks for a new one.
        public var renewalLead: Duration
        /// How long after its start a timer is dropped: no sleep lasts so
        /// long, so the app must have finished it without telling us.
        public var longestSleep: Duration
        /// How long after the store failed to drop timers they are tried
        /// again.
        public var storeFailureHold: Duration

        public init(
            renewalLead: Duration = .seconds(30 * 60), longestSleep: Duration = .seconds(48 * 3600),
            storeFailureHold: Duration = StoreFailure.hold
        ) {
            self.renewalLead = renewalLead
            self.longestSleep = longestSleep
            self.storeFailureHold = storeFailureHold
        }
    }

    /// What the machine remembers between looks.
    public struct State: Sendable, Equatable {
        /// The token expiry each timer was last warned of, and last
        /// announced as run out: each happens once per token.
        public fileprivate(set) var warned: [TimerID: Instant] = [:]
        public fileprivate(set) var ranOut: [TimerID: Instant] = [:]
        /// The next moment something is due; nil when nothing will be.
        public fileprivate(set) var wakeAt: Instant?

        /// Nothing warned of: the agent's start.
        public init() {}
    }

    /// What a look at the timers finds due.
    public enum TimersSeenAction: Sendable, Equatable {
        /// Ask for a new token for this timer, whose token expires then.
        case renewalDue(TimerID, expiresAt: Instant)
        /// The token ran out: the timer can no longer be completed from the
        /// desktop, and shows so.
        case tokenExpired(TimerID)
        /// Drop these timers: no sleep runs this long.
        case remove([TimerID])
    }

    public var settings: Settings
    private(set) var state = State()

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// The next moment something is due; nil when nothing will be.
    public var wakeAt: Instant? { state.wakeAt }

    /// The agent looked at every timer at `now` (at its start, on a
    /// wake-up, after the clock, the settings or the list changed): what is
    /// due, and when to look again.
    public mutating func timersSeen<Timers: Collection<StoredTimer>>(_ timers: Timers, now: Instant) -> [TimersSeenAction] {
        var actions: [TimersSeenAction] = []
        var ended: [TimerID] = []
        var next: Instant?
        func later(_ moment: Instant) { next = min(next ?? moment, moment) }
        for stored in timers where stored.completionState != .pending {
            let id = stored.timer.id
            let endsAt = stored.timer.startedAt + settings.longestSleep
            if endsAt <= now {
                ended.append(id)
                continue
            }
            later(endsAt)
            guard stored.state == .running, stored.timer.token != nil else { continue }
            let expiresAt = stored.timer.tokenExpiresAt
            let renewAt = expiresAt - settings.renewalLead
            if expiresAt <= now {
                if state.ranOut[id] != expiresAt { actions.append(.tokenExpired(id)) }
                state.ranOut[id] = expiresAt
                // Its renewal moment passed unseen (the machine was
                // suspended, or the agent not running): asked for once now,
                // since the platform issues a new token while the timer runs.
                if state.warned[id] != expiresAt { actions.append(.renewalDue(id, expiresAt: expiresAt)) }
                state.warned[id] = expiresAt
                continue
            }
            later(expiresAt)
            if renewAt <= now {
                if state.warned[id] != expiresAt { actions.append(.renewalDue(id, expiresAt: expiresAt)) }
                state.warned[id] = expiresAt
            } else {
                later(renewAt)
            }
        }
        forgetAllBut(timers)
        if !ended.isEmpty { actions.append(.remove(ended.sorted())) }
        state.wakeAt = next
        return actions
    }

    /// The store could not drop the timers of `.remove` at `now`: they are
    /// still there, and the next look, after the hold, asks again.
    public mutating func removalNotStored(now: Instant) {
        let retry = now + settings.storeFailureHold
        state.wakeAt = min(state.wakeAt ?? retry, retry)
    }

    /// Keeps memory only of the timers there are.
    private mutating func forgetAllBut<Timers: Collection<StoredTimer>>(_ timers: Timers) {
        guard state.warned.count + state.ranOut.count > 0 else { return }
        let present = Set(timers.map(\.timer.id))
        state.warned = state.warned.filter { present.contains($0.key) }
        state.ranOut = state.ranOut.filter { present.contains($0.key) }
    }
}
