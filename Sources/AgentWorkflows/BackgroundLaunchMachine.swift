import SleepTimerCore

/// When the agent starts the desktop app in the background: the app's web
/// view holds the family's session, and only it can renew a token (through
/// its bridge) or say that a timer was stopped on another device. So when
/// a token is due for renewal and no renewal comes within a bound (no app
/// runs, or it runs without a bridge), and for the timers brought back from
/// the store at the agent's start (after a reboot, when nothing runs yet),
/// the agent activates the app's `background` action, which D-Bus
/// activation starts if need be, with no window (`AppActionRule` says
/// which of the app's actions may start it).
///
/// An app that cannot renew (signed out, session expired) must not be
/// started again and again: at most once an hour for each timer. One
/// activation serves every timer due at that moment.
public struct BackgroundLaunchMachine: Sendable {
    public struct Settings: Sendable, Equatable {
        /// `[app] background`.
        public var enabled: Bool
        /// How long after asking for a renewal the agent waits for one.
        public var renewalBound: Duration
        /// The least time between two launches for the same timer.
        public var perTimerInterval: Duration

        public init(enabled: Bool = true, renewalBound: Duration = .seconds(60), perTimerInterval: Duration = .seconds(3600)) {
            self.enabled = enabled
            self.renewalBound = renewalBound
            self.perTimerInterval = perTimerInterval
        }
    }

    /// A renewal asked for and not yet seen: the token's expiry it was
    /// about, and when the bound runs out.
    public struct Awaited: Sendable, Equatable {
        public let expiresAt: Instant
        public let deadline: Instant

        public init(expiresAt: Instant, deadline: Instant) {
            self.expiresAt = expiresAt
            self.deadline = deadline
        }
    }

    public struct State: Sendable, Equatable {
        public fileprivate(set) var awaiting: [TimerID: Awaited] = [:]
        /// When the app was last started for each timer.
        public fileprivate(set) var lastLaunch: [TimerID: Instant] = [:]

        /// Nothing awaited, nothing launched: the agent's start.
        public init() {}
    }

    /// What the timers brought back at the start lead to.
    public enum RestoredAction: Sendable, Equatable {
        /// Activate the app's `background` action, for these timers.
        case launch([TimerID])
    }

    /// What a wake-up, when bounds ran out, leads to.
    public enum WokeAction: Sendable, Equatable {
        /// Activate the app's `background` action, for these timers.
        case launch([TimerID])
        /// Not again yet for these: the app was started for them less than
        /// `perTimerInterval` ago (and could not renew, or they would not be
        /// due).
        case heldBack([TimerID])
    }

    public var settings: Settings
    private(set) var state = State()

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// The next moment a bound runs out; nil when none waits.
    public var wakeAt: Instant? { state.awaiting.values.map(\.deadline).min() }

    /// The agent brought these timers back from its store at its start:
    /// those a sleep still runs for, with no completion recorded (their
    /// token may have run out meanwhile), need the app for a renewal or a
    /// reconcile; one being saved, or left to the app to finish, does not.
    public mutating func restored(timers: [StoredTimer], now: Instant) -> [RestoredAction] {
        restored(timers.filter { $0.state == .running }.map(\.timer.id), now: now)
    }

    /// The agent brought back these timers, each needing the app. It does
    /// so once, at its start, before anything was launched: nothing is held
    /// back.
    public mutating func restored(_ ids: [TimerID], now: Instant) -> [RestoredAction] {
        guard settings.enabled, !ids.isEmpty else { return [] }
        for id in ids { state.lastLaunch[id] = now }
        return [.launch(ids.sorted())]
    }

    /// The agent asked for a new token of this timer (TokenExpiring).
    public mutating func renewalAsked(_ id: TimerID, expiresAt: Instant, now: Instant) {
        guard settings.enabled else { return }
        state.awaiting[id] = Awaited(expiresAt: expiresAt, deadline: now.adding(settings.renewalBound))
    }

    /// A Mirror brought the timer a token expiring at `expiresAt`: a
    /// renewal if it outlives the one asked about.
    public mutating func mirrored(_ id: TimerID, expiresAt: Instant) {
        guard let waiting = state.awaiting[id], expiresAt > waiting.expiresAt else { return }
        state.awaiting[id] = nil
    }

    /// The timer is gone (completed, removed, reconciled, purged).
    public mutating func removed(_ id: TimerID) {
        state.awaiting[id] = nil
        state.lastLaunch[id] = nil
    }

    /// The loop woke at `now`: the timers whose bound ran out without a
    /// renewal.
    public mutating func woke(now: Instant) -> [WokeAction] {
        let due = state.awaiting.filter { $0.value.deadline <= now }.map(\.key)
        for id in due { state.awaiting[id] = nil }
        guard settings.enabled else { return [] }
        let interval = settings.perTimerInterval
        let allowed = due.filter { id in
            guard let last = state.lastLaunch[id] else { return true }
            return now.duration(since: last) >= interval
        }.sorted()
        let held = Set(due).subtracting(allowed).sorted()
        for id in allowed { state.lastLaunch[id] = now }
        return (allowed.isEmpty ? [] : [.launch(allowed)]) + (held.isEmpty ? [] : [.heldBack(held)])
    }
}

