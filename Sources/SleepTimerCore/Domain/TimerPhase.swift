/// Where a timer stands as the desktop shows it, in its notification and on
/// the panel alike: both read it from the stored state here, so that the
/// two cannot tell the parent different things.
public enum TimerPhase: Sendable, Equatable {
    /// Running; `canComplete` while the desktop holds a valid token.
    case running(canComplete: Bool)
    /// A completion is recorded and being sent; `waitingForNetwork` once
    /// an attempt failed for want of a connection.
    case saving(waitingForNetwork: Bool)
    /// The platform created the activity; the sleep lasted `minutes`.
    /// Shown for a moment after the timer itself has gone.
    case saved(minutes: Int64)
    /// The completion cannot be made from the desktop.
    case failed

    /// The phase of a timer in `state`: the one mapping from the stored
    /// state, for callers that hold the state already read at a moment.
    public init(state: TimerState, canComplete: Bool, completionAttempts: Int) {
        switch state {
        case .running, .tokenExpired: self = .running(canComplete: canComplete)
        case .saving: self = .saving(waitingForNetwork: completionAttempts > 0)
        case .saveFailed, .needsApp: self = .failed
        }
    }

    /// The phase of `timer` at `now`.
    public init(of timer: StoredTimer, at now: Instant) {
        self.init(state: timer.state, canComplete: timer.canComplete(at: now), completionAttempts: timer.completionAttempts)
    }

    /// Running: its elapsed time changes by the minute.
    public var isRunning: Bool {
        if case .running = self { return true }
        return false
    }

    /// When a running timer's elapsed time next changes: the next whole
    /// minute after the start, after `now` (the first minute when `now` is
    /// before the start, as a clock set back can make it).
    public static func nextMinuteBoundary(after now: Instant, startedAt: Instant) -> Instant {
        let elapsed = now.milliseconds(since: startedAt)
        guard elapsed >= 0 else { return startedAt.adding(milliseconds: Milliseconds.minute) }
        return startedAt.adding(milliseconds: (elapsed / Milliseconds.minute + 1) * Milliseconds.minute)
    }
}
