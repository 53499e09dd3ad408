extension SleepTimers1 {
    /// Inserts or updates a running Sleep timer of a family member in
    /// self-mode; the dictionary's keys are `MirrorKey`.
    public enum Mirror: BusMethod {
        public static let name = "Mirror"
        public static let arguments = [BusArgument("timer", "a{sv}")]
        public static let reply: [BusArgument] = []
    }

    /// Forgets one timer; replies whether there was one.
    public enum Remove: BusMethod {
        public static let name = "Remove"
        public static let arguments = [BusArgument("timer_id", "s")]
        public static let reply = [BusArgument("removed", "b")]
    }

    /// Drops the timers of one scope that are not in the list; replies how
    /// many went.
    public enum Reconcile: BusMethod {
        public static let name = "Reconcile"
        public static let arguments = [
            BusArgument("api_origin", "s"), BusArgument("user_id", "s"), BusArgument("family_subject_id", "s"),
            BusArgument("running_timer_ids", "as"),
        ]
        public static let reply = [BusArgument("removed", "u")]
    }

    /// Sign-out or account deletion: forgets everything of a scope (an
    /// empty family means every family of the user); replies how many
    /// timers went.
    public enum Purge: BusMethod {
        public static let name = "Purge"
        public static let arguments = [
            BusArgument("api_origin", "s"), BusArgument("user_id", "s"), BusArgument("family_subject_id", "s"),
        ]
        public static let reply = [BusArgument("removed", "u")]
    }

    /// Every mirrored timer, as dictionaries whose keys are `TimerKey`.
    public enum List: BusMethod {
        public static let name = "List"
        public static let arguments: [BusArgument] = []
        public static let reply = [BusArgument("timers", "aa{sv}")]
    }

    /// Completes a timer with the moment it ended (0: now); replies
    /// "queued" once the completion is recorded.
    public enum Complete: BusMethod {
        public static let name = "Complete"
        public static let arguments = [BusArgument("timer_id", "s"), BusArgument("completed_at_ms", "x")]
        public static let reply = [BusArgument("status", "s")]
    }

    /// Opens the app at the timer's Sleep tracker.
    public enum Open: BusMethod {
        public static let name = "Open"
        public static let arguments = [BusArgument("timer_id", "s")]
        public static let reply: [BusArgument] = []
    }

    /// Completes the one running Sleep the desktop can complete, for a
    /// keystroke that names no timer; replies a `RunningOutcome`.
    public enum CompleteRunning: BusMethod {
        public static let name = "CompleteRunning"
        public static let arguments: [BusArgument] = []
        public static let reply = [BusArgument("outcome", "s")]
    }

    /// Opens the app at the one running Sleep, else at its start page;
    /// replies a `RunningOutcome`.
    public enum OpenRunning: BusMethod {
        public static let name = "OpenRunning"
        public static let arguments: [BusArgument] = []
        public static let reply = [BusArgument("outcome", "s")]
    }

    /// What CompleteRunning and OpenRunning did.
    public enum RunningOutcome: String, CaseIterable, Sendable {
        /// CompleteRunning recorded the completion of the one running Sleep.
        case completed
        /// CompleteRunning found no Sleep it can complete: nothing happened.
        case noneRunning = "none"
        /// CompleteRunning found several: none completed, the app opened at
        /// its start page.
        case several
        /// OpenRunning opened the app.
        case opened
    }
}
