import SleepTimerCore

/// The timers the indicator shows, kept from the agent's changes: each
/// timer as it is now, and a saved sleep for a moment after the timer has
/// left, so that the parent sees it was saved.
public struct IndicatorTimers: Sendable {
    /// As long as the notification's "Sleep saved" at most stays: its
    /// timeout, and the grace for a server that ignores it.
    public static let savedMoment: Duration = NotificationContent.transientLifetime

    private var timers: [TimerID: IndicatorTimer] = [:]
    private var savedUntil: [TimerID: Instant] = [:]

    public init() {}

    public var all: [IndicatorTimer] { Array(timers.values) }

    /// When the next saved moment ends; nil when none is shown.
    public var nextMomentEnd: Instant? { savedUntil.values.min() }

    /// A timer was mirrored or changed.
    public mutating func changed(_ timer: IndicatorTimer) {
        savedUntil[timer.id] = nil
        timers[timer.id] = timer
    }

    /// A timer left the list; false when nothing shown changed (it was not
    /// shown, or it is saved and stays for its moment).
    public mutating func removed(_ id: TimerID) -> Bool {
        guard savedUntil[id] == nil else { return false }
        return timers.removeValue(forKey: id) != nil
    }

    /// The platform created the activity: the timer shows as saved until
    /// its moment ends. False when it was not shown.
    public mutating func saved(_ id: TimerID, minutes: Int64, now: Instant) -> Bool {
        guard let timer = timers[id] else { return false }
        timers[id] = IndicatorTimer(id: id, babyName: timer.babyName, startedAt: timer.startedAt, phase: .saved(minutes: minutes))
        savedUntil[id] = now.adding(Self.savedMoment)
        return true
    }

    /// Ends the saved moments that are over at `now`; false when none was.
    public mutating func endMoments(at now: Instant) -> Bool {
        let over = savedUntil.filter { $0.value <= now }.map(\.key)
        for id in over {
            savedUntil[id] = nil
            timers[id] = nil
        }
        return !over.isEmpty
    }
}
