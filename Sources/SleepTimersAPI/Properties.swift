extension SleepTimers1 {
    /// The interface's properties, all read-only, in the order of the
    /// introspection file (and of GetAll).
    public enum Property: String, CaseIterable, Sendable {
        /// The agent's version; constant.
        case version = "Version"
        /// How many timers are mirrored (the length of List).
        case runningCount = "RunningCount"
        /// How many recorded completions still wait to reach the platform.
        case pendingCompletions = "PendingCompletions"
        /// The desktop's notification server ("name version"), empty when
        /// there is none.
        case notificationServer = "NotificationServer"
        /// The platform origins Mirror accepts timers from (the
        /// configuration's allowed-origins, else the platform's API): what
        /// a person checks first when every timer is refused.
        case allowedOrigins = "AllowedOrigins"

        public var name: String { rawValue }

        public var signature: String {
            switch self {
            case .version, .notificationServer: "s"
            case .runningCount, .pendingCompletions: "u"
            case .allowedOrigins: "as"
            }
        }
    }
}
