extension SleepTimers1 {
    /// The keys of Mirror's dictionary, in the order error messages list
    /// them. The token comes as exactly one of `actionToken` and
    /// `actionTokenFD`.
    public enum MirrorKey: String, CaseIterable, Sendable {
        case timerID = "timer_id"
        case apiOrigin = "api_origin"
        case userID = "user_id"
        case familySubjectID = "family_subject_id"
        case babyID = "baby_id"
        case babyName = "baby_name"
        case activityType = "activity_type"
        case actorMode = "actor_mode"
        case startedAt = "started_at_ms"
        case timeZone = "timezone"
        case actionToken = "action_token"
        /// A pipe or memfd holding the token, which keeps it out of the
        /// message.
        case actionTokenFD = "action_token_fd"
        case tokenExpiresAt = "token_expires_at_ms"
        case revision = "revision"
        /// The platform's clock minus this desktop's, in milliseconds, as
        /// the caller measured it (from the Date of the platform's answer to
        /// its upsert): completion times are sent in the platform's clock.
        case platformClockOffset = "platform_clock_offset_ms"

        public var name: String { rawValue }

        /// The type of the variant's value.
        public var signature: String {
            switch self {
            case .startedAt, .tokenExpiresAt, .revision, .platformClockOffset: "x"
            case .actionTokenFD: "h"
            default: "s"
            }
        }

        /// Whether every Mirror must carry it. Of the two token keys, one
        /// is required, which no single key says.
        public var isRequired: Bool {
            switch self {
            case .actionToken, .actionTokenFD, .revision, .platformClockOffset: false
            default: true
            }
        }
    }

    /// The keys of a timer as List and TimerChanged describe it: display
    /// data only, never the token.
    public enum TimerKey: String, CaseIterable, Sendable {
        case timerID = "timer_id"
        case apiOrigin = "api_origin"
        case familySubjectID = "family_subject_id"
        case babyID = "baby_id"
        case babyName = "baby_name"
        case startedAt = "started_at_ms"
        case timeZone = "timezone"
        /// running | token-expired | saving | save-failed | needs-app
        case state = "state"
        case canComplete = "can_complete"
        case deepLink = "deep_link"
        /// shown | dismissed | unavailable
        case notification = "notification"

        public var name: String { rawValue }

        public var signature: String {
            switch self {
            case .startedAt: "x"
            case .canComplete: "b"
            default: "s"
            }
        }
    }
}
