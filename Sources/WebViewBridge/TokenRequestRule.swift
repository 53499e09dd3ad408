import SleepTimerCore

/// Whether the bridge asks the platform for a native action token, and why
/// not, written once for the WebView's upsert, for the moment its answer
/// comes back, and for a renewal. A token is asked for the family in
/// self-mode only: coach view-as never gets one, so that a desktop widget
/// cannot become a reusable proxy for a coach's access to a family. It is
/// asked only for what the agent can show (a Sleep timer whose name the
/// desktop can display) and when the agent answers, since the platform
/// revokes a timer's earlier token when it issues a new one.
enum TokenRequestRule {
    /// Why no token was asked for, or none handed over; the raw value is
    /// the `native.reason` the WebView reads.
    enum Reason: String, Equatable {
        case coachViewAs = "coach-view-as"
        case notSleep = "not-sleep"
        case nameNotDisplayable = "name-not-displayable"
        case agentUnavailable = "agent-unavailable"
        /// Signed out, switched to another user, platform or family, or
        /// out of self-mode while the platform answered.
        case sessionChanged = "session-changed"
    }

    enum Decision: Equatable {
        case ask
        case dontAsk(Reason)
    }

    /// The WebView's upsert of a timer: the platform is asked for a token
    /// with it, or not, and why not.
    static func upsert(actorMode: Session.ActorMode, activity: ActivityType, nameDisplayable: Bool, agentAnswers: Bool)
        -> Decision
    {
        if actorMode == .coach { return .dontAsk(.coachViewAs) }
        if activity != .sleep { return .dontAsk(.notSleep) }
        if !nameDisplayable { return .dontAsk(.nameNotDisplayable) }
        return agentAnswers ? .ask : .dontAsk(.agentUnavailable)
    }

    /// Whether the agent is worth asking whether it answers: only when its
    /// answer alone can still decide for a token (nothing is asked of it for
    /// a coach, another activity or a name it could not show).
    static func asksAgent(actorMode: Session.ActorMode, activity: ActivityType, nameDisplayable: Bool) -> Bool {
        upsert(actorMode: actorMode, activity: activity, nameDisplayable: nameDisplayable, agentAnswers: true) == .ask
    }

    /// A token for a timer of `scope` goes to the agent (once the platform
    /// issued it), or is asked for again (a renewal), only while the live
    /// session is that timer's own: the same platform, user and family, in
    /// self-mode. A token is never handed over for a session that ended.
    static func stillAsks(for scope: TimerScope, session current: Session?) -> Decision {
        guard let current, current.scope == scope, current.actorMode == .selfMode else {
            return .dontAsk(.sessionChanged)
        }
        return .ask
    }
}
