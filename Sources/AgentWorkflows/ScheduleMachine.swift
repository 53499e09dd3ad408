import SleepTimerCore

/// The agent's wake-ups as values: each workflow names the moment it next
/// needs the loop (a token's expiry, a minute boundary, a retry), and the
/// process keeps one loop timer, its alarm, for the earliest of them.
/// Between those moments it sleeps.
///
/// A machine without a loop: each event says how the one alarm must be
/// armed again, and the shell arms it.
public struct ScheduleMachine<Reason: Hashable & Sendable>: Sendable {
    public struct State: Sendable, Equatable {
        /// The moment each reason waits for.
        public fileprivate(set) var deadlines: [Reason: Instant] = [:]
        /// The moment the shell's alarm is armed for; nil when it is not
        /// armed.
        public fileprivate(set) var armedAt: Instant?

        /// Nothing waits, the alarm is not armed: the agent's start.
        public init() {}

        /// The earliest deadline; nil when nothing waits.
        public var next: Instant? { deadlines.values.min() }
    }

    private(set) var state = State()

    public init() {}

    public enum DeadlineChangedAction: Sendable, Equatable {
        /// Arm the alarm for this moment, in place of the one it was armed for.
        case arm(Instant)
        /// Nothing waits any more: disarm the alarm.
        case disarm
    }

    /// A workflow set the deadline of `reason` (nil: it waits for nothing).
    /// Nil when the alarm already fires at the right moment.
    public mutating func deadlineChanged(_ reason: Reason, to instant: Instant?) -> DeadlineChangedAction? {
        state.deadlines[reason] = instant
        switch rearm() {
        case .asItIs: return nil
        case .at(let moment): return .arm(moment)
        case .disarmed: return .disarm
        }
    }

    public enum AlarmFiredAction: Sendable, Equatable {
        /// Arm the alarm again for this moment, for what still waits.
        case arm(Instant)
        /// This reason's moment has come: its owner looks again (and sets
        /// its next deadline).
        case due(Reason)
    }

    /// The alarm fired at `now` (and is spent): arm it again for what is
    /// not due, if anything waits, then the reasons that are due, earliest
    /// first; they are cleared, and their owners set them again.
    public mutating func alarmFired(at now: Instant) -> [AlarmFiredAction] {
        state.armedAt = nil
        let due = state.deadlines.filter { $0.value <= now }.sorted { $0.value < $1.value }.map(\.key)
        for reason in due { state.deadlines[reason] = nil }
        // The alarm is spent: armed again if anything waits, and with
        // nothing to disarm.
        guard case .at(let moment) = rearm() else { return due.map(AlarmFiredAction.due) }
        return [.arm(moment)] + due.map(AlarmFiredAction.due)
    }

    public enum AlarmLostAction: Sendable, Equatable {
        /// Arm the alarm again for this moment.
        case arm(Instant)
    }

    /// The shell's alarm was disarmed from outside (the clock was set): nil
    /// when nothing waits.
    public mutating func alarmLost() -> AlarmLostAction? {
        state.armedAt = nil
        guard case .at(let moment) = rearm() else { return nil }
        return .arm(moment)
    }

    /// How the alarm is armed now for what waits.
    private enum Rearm {
        /// Already for the earliest deadline, or not armed with none.
        case asItIs
        case at(Instant)
        case disarmed
    }

    private mutating func rearm() -> Rearm {
        let wanted = state.next
        guard wanted != state.armedAt else { return .asItIs }
        state.armedAt = wanted
        return wanted.map(Rearm.at) ?? .disarmed
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
    /// asked for again, after ServerDiscoveryMachine's back-off.
    case notificationServer
}
