extension SleepTimers1 {
    /// A timer was added or changed: one dictionary whose keys are `TimerKey`.
    public enum TimerChanged: BusSignal {
        public static let name = "TimerChanged"
        public static let arguments = [BusArgument("timer", "a{sv}")]
    }

    /// A timer left the list, and why.
    public enum TimerRemoved: BusSignal {
        public static let name = "TimerRemoved"
        public static let arguments = [BusArgument("timer_id", "s"), BusArgument("reason", "s")]
    }

    /// The outcome of a Complete, with the new activity's id when one was
    /// created.
    public enum CompletionFinished: BusSignal {
        public static let name = "CompletionFinished"
        public static let arguments = [
            BusArgument("timer_id", "s"), BusArgument("outcome", "s"), BusArgument("activity_id", "s"),
        ]
    }

    /// A running timer's token expires soon: an app with a live session
    /// renews it by upserting the timer again and mirroring the new token.
    public enum TokenExpiring: BusSignal {
        public static let name = "TokenExpiring"
        public static let arguments = [BusArgument("timer_id", "s"), BusArgument("expires_at_ms", "x")]
    }

    /// Why a timer left the list, TimerRemoved's `reason`.
    public enum RemovalReason: String, CaseIterable, Sendable {
        case completed
        case completedElsewhere = "completed-elsewhere"
        case removed
        case reconciled
        case purged
        /// Started longer ago than any sleep lasts.
        case expired
    }

    /// How a Complete ended, CompletionFinished's `outcome`.
    public enum CompletionOutcome: String, CaseIterable, Sendable {
        case created
        case alreadyCompleted = "already-completed"
        case failed
    }
}
