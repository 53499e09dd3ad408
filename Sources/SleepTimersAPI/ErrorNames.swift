extension SleepTimers1 {
    /// The errors a refused call answers with, after the prefix
    /// `com.dreamsforlittles.SleepTimers1.Error.`.
    public enum ErrorName: String, CaseIterable, Sendable {
        case invalidArgument = "InvalidArgument"
        case notSleep = "NotSleep"
        case notSelfMode = "NotSelfMode"
        case bearerTokenRefused = "BearerTokenRefused"
        case originNotAllowed = "OriginNotAllowed"
        case tokenExpired = "TokenExpired"
        case unknownTimer = "UnknownTimer"
        case cannotComplete = "CannotComplete"
        /// The agent's store failed (disk full, I/O error); nothing changed.
        case storageFailed = "StorageFailed"
        /// A Mirror of a new timer beyond the agent's limits (per family, in
        /// all); the message says the limit.
        case tooManyTimers = "TooManyTimers"
        /// Another dfl-sleep-agent of the user, on another session bus,
        /// holds the store: this bus's agent serves nothing; the message
        /// says which process holds it.
        case storeInUse = "StoreInUse"

        public static let prefix = SleepTimers1.interface + ".Error."

        /// The full D-Bus error name.
        public var name: String { Self.prefix + rawValue }
    }
}
