import SleepTimerCore

/// The agent's wake-ups as values: each workflow names the moment it next
/// needs the loop (a token's expiry, a minute boundary, a retry), and the
/// process keeps one loop timer, for the earliest of them. Between those
/// moments it sleeps.
///
/// A state machine without a loop: `update` and `fire` say when the one
/// timer must be armed again, and the shell arms it.
public struct Schedule<Reason: Hashable & Sendable>: Sendable {
    private var deadlines: [Reason: Instant] = [:]
    /// The moment the shell's timer is armed for; nil when it is not armed.
    public private(set) var armedAt: Instant?

    public init() {}

    /// What the shell does with its one timer.
    public enum Arm: Sendable, Equatable {
        case at(Instant)
        case disarm
    }

    /// The earliest deadline; nil when nothing waits.
    public var next: Instant? { deadlines.values.min() }

    public func deadline(of reason: Reason) -> Instant? { deadlines[reason] }

    /// Sets (or, with nil, clears) the deadline of `reason`. Returns how to
    /// re-arm the timer, or nil when it already fires at the right moment.
    public mutating func update(_ reason: Reason, to instant: Instant?) -> Arm? {
        deadlines[reason] = instant
        return rearm()
    }

    /// The timer fired at `now` (and is spent): the reasons that are due,
    /// earliest first (they are cleared; their owners set them again), and
    /// when to arm it again for the rest, nil when nothing else waits.
    public mutating func fire(at now: Instant) -> (due: [Reason], arm: Arm?) {
        armedAt = nil
        let due = deadlines.filter { $0.value <= now }.sorted { $0.value < $1.value }.map(\.key)
        for reason in due { deadlines[reason] = nil }
        return (due, rearm())
    }

    /// The shell's timer was disarmed from outside (the clock was set):
    /// how to arm it again for what waits.
    public mutating func timerLost() -> Arm? {
        armedAt = nil
        return rearm()
    }

    private mutating func rearm() -> Arm? {
        let wanted = next
        guard wanted != armedAt else { return nil }
        armedAt = wanted
        return wanted.map(Arm.at) ?? .disarm
    }
}

/// Why the agent wakes up.
public enum AgentWake: Hashable, Sendable, CaseIterable {
    /// A mirrored token expires.
    case tokenExpiry
    /// A shown notification's text changes (a minute boundary of a running
    /// timer) or a "saved" notification is due to close.
    case notifications
    /// A completion is due to be sent (again), or a hold on one ends.
    case completions
    /// The panel indicator's elapsed times move on, or a saved moment ends.
    case panel
    /// A renewal asked for did not come within its bound: the app is
    /// started in the background.
    case background
    /// The notification server answered with errors: its capabilities are
    /// asked for again, after ServerDiscovery's back-off.
    case notificationServer
}
