import SleepTimerCore

/// When the agent starts the desktop app in the background: the app's web
/// view holds the family's session, and only it can renew a token (through
/// its bridge) or say that a timer was stopped on another device. So when
/// a token is due for renewal and no renewal comes within a bound (no app
/// runs, or it runs without a bridge), and for the timers brought back from
/// the store at the agent's start (after a reboot, when nothing runs yet),
/// the agent activates the app's `background` action, which D-Bus
/// activation starts if need be, with no window.
///
/// An app that cannot renew (signed out, session expired) must not be
/// started again and again: at most once an hour for each timer. One
/// activation serves every timer due at that moment.
public struct BackgroundLaunch: Sendable {
    public struct Settings: Sendable, Equatable {
        /// `[app] background`.
        public var enabled: Bool
        /// How long after asking for a renewal the agent waits for one.
        public var renewalBound: Int64
        /// The least time between two launches for the same timer.
        public var perTimerInterval: Int64

        public init(enabled: Bool = true, renewalBound: Int64 = 60 * Milliseconds.second,
                    perTimerInterval: Int64 = Milliseconds.hour)
        {
            self.enabled = enabled
            self.renewalBound = renewalBound
            self.perTimerInterval = perTimerInterval
        }
    }

    public enum Action: Sendable, Equatable {
        /// Activate the app's `background` action, for these timers.
        case launch([TimerID])
        /// Not again yet for these: the app was started for them less than
        /// `perTimerInterval` ago (and could not renew, or they would not be
        /// due).
        case heldBack([TimerID])
    }

    public var settings: Settings
    /// Renewals asked for and not yet seen: the token's expiry they were
    /// about, and when the bound runs out.
    private var awaiting: [TimerID: (expiresAt: Instant, deadline: Instant)] = [:]
    private var lastLaunch: [TimerID: Instant] = [:]

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// The next moment a bound runs out; nil when none waits.
    public var wakeAt: Instant? { awaiting.values.map(\.deadline).min() }

    /// The agent brought these timers back from its store at its start:
    /// those a sleep still runs for, with no completion recorded (their
    /// token may have run out meanwhile), need the app for a renewal or a
    /// reconcile; one being saved, or left to the app to finish, does not.
    public mutating func restored(timers: [StoredTimer], now: Instant) -> [Action] {
        restored(timers.filter { $0.state == .running }.map(\.timer.id), now: now)
    }

    /// The agent brought back these timers, each needing the app.
    public mutating func restored(_ ids: [TimerID], now: Instant) -> [Action] {
        launch(ids, now: now)
    }

    /// The agent asked for a new token of this timer (TokenExpiring).
    public mutating func renewalAsked(_ id: TimerID, expiresAt: Instant, now: Instant) {
        guard settings.enabled else { return }
        awaiting[id] = (expiresAt, now.adding(milliseconds: settings.renewalBound))
    }

    /// A Mirror brought the timer a token expiring at `expiresAt`: a
    /// renewal if it outlives the one asked about.
    public mutating func mirrored(_ id: TimerID, expiresAt: Instant) {
        guard let waiting = awaiting[id], expiresAt > waiting.expiresAt else { return }
        awaiting[id] = nil
    }

    /// The timer is gone (completed, removed, reconciled, purged).
    public mutating func removed(_ id: TimerID) {
        awaiting[id] = nil
        lastLaunch[id] = nil
    }

    /// The loop woke at `now`: the timers whose bound ran out without a
    /// renewal.
    public mutating func check(now: Instant) -> [Action] {
        let due = awaiting.filter { $0.value.deadline <= now }.map(\.key)
        for id in due { awaiting[id] = nil }
        return launch(due, now: now)
    }

    private mutating func launch(_ ids: [TimerID], now: Instant) -> [Action] {
        guard settings.enabled else { return [] }
        let allowed = ids.filter { id in
            guard let last = lastLaunch[id] else { return true }
            return now.millisecondsSince1970 - last.millisecondsSince1970 >= settings.perTimerInterval
        }.sorted()
        let held = Set(ids).subtracting(allowed).sorted()
        for id in allowed { lastLaunch[id] = now }
        return (allowed.isEmpty ? [] : [.launch(allowed)]) + (held.isEmpty ? [] : [.heldBack(held)])
    }
}
