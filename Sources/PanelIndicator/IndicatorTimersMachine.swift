import SleepTimerCore

/// The timers the indicator shows, kept from the agent's changes: each
/// timer as it is now, and a saved sleep for a moment after the timer has
/// left, so that the parent sees it was saved. Each event that changes what
/// is shown returns the whole list to show, in the list order; nil when
/// nothing shown changed. Every event leads to that one thing, so each
/// returns the list itself.
public struct IndicatorTimersMachine: Sendable {
    public struct Settings: Sendable, Equatable {
        /// How long a saved sleep stays shown after its timer left: as long
        /// as the notification's "Sleep saved" at most stays (its timeout,
        /// and the grace for a server that ignores it).
        public var savedMoment: Duration

        public init(savedMoment: Duration = NotificationContent.transientLifetime) {
            self.savedMoment = savedMoment
        }
    }

    public struct State: Sendable, Equatable {
        /// Every timer shown, by id.
        public fileprivate(set) var timers: [TimerID: IndicatorTimer] = [:]
        /// The saved sleeps still shown, and when each moment ends.
        public fileprivate(set) var savedUntil: [TimerID: Instant] = [:]

        /// Nothing shown.
        public init() {}

        /// The timers shown, in the list order (`TimerOrderRule`).
        public var all: [IndicatorTimer] {
            timers.values.sorted {
                TimerOrderRule.precedes(startedAt: $0.startedAt, id: $0.id, before: $1.startedAt, $1.id)
            }
        }
    }

    public let settings: Settings
    private(set) var state = State()

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// The timers shown, in the list order: the shell hands the first list
    /// to the item before any event has returned one.
    public var timers: [IndicatorTimer] { state.all }

    /// When the next saved moment ends; nil when none is shown.
    public var nextMomentEnd: Instant? { state.savedUntil.values.min() }

    /// A timer was mirrored or changed: it shows as it is now, and a saved
    /// moment of it ends.
    public mutating func timerChanged(_ timer: IndicatorTimer) -> [IndicatorTimer] {
        state.savedUntil[timer.id] = nil
        state.timers[timer.id] = timer
        return state.all
    }

    /// A timer left the list; nil when nothing shown changed (it was not
    /// shown, or it is saved and stays for its moment).
    public mutating func timerRemoved(_ id: TimerID) -> [IndicatorTimer]? {
        guard state.savedUntil[id] == nil, state.timers.removeValue(forKey: id) != nil else { return nil }
        return state.all
    }

    /// The platform created the activity, a sleep of `minutes`: the timer
    /// shows as saved until its moment ends. Nil when it was not shown.
    public mutating func sleepSaved(_ id: TimerID, minutes: Int64, now: Instant) -> [IndicatorTimer]? {
        guard let timer = state.timers[id] else { return nil }
        state.timers[id] = IndicatorTimer(
            id: id, babyName: timer.babyName, startedAt: timer.startedAt, phase: .saved(minutes: minutes))
        state.savedUntil[id] = now + settings.savedMoment
        return state.all
    }

    /// The loop woke at `now`: the saved moments that are over end. Nil
    /// when none was.
    public mutating func woke(now: Instant) -> [IndicatorTimer]? {
        let over = state.savedUntil.filter { $0.value <= now }.map(\.key)
        guard !over.isEmpty else { return nil }
        for id in over {
            state.savedUntil[id] = nil
            state.timers[id] = nil
        }
        return state.all
    }
}
