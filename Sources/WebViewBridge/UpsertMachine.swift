import SleepTimerCore

/// One sleepTimer.upsert, from the page's request to the answer the
/// WebView gets: the platform first, the desktop second. What the desktop
/// can or cannot show never stops the timer from being saved on the
/// platform; the answer says what became of it on the desktop (`Outcome`,
/// whose raw value is the `native.reason` the WebView reads), and why.
///
/// A 409 scope_conflict that names the canonical timer of the page's
/// timer's scope is answered with that timer: when the page's timer could
/// have been mirrored, the canonical one is upserted with a token request
/// (a 409 carries no token) and mirrored instead. A renewal is an upsert
/// that asks for a token and adopts no canonical timer.
/// `TokenRequestRule` decides whether a token is asked for, and why not.
struct UpsertMachine {
    /// What became of the timer on the desktop.
    enum Outcome: String, Equatable {
        case mirrored
        case coachViewAs = "coach-view-as"
        case notSleep = "not-sleep"
        case nameNotDisplayable = "name-not-displayable"
        case agentUnavailable = "agent-unavailable"
        case sessionChanged = "session-changed"
        /// The platform issued no token the agent could take, or did not
        /// store the canonical timer that would have had one.
        case tokenNotIssued = "token-not-issued"

        init(_ reason: TokenRequestRule.Reason) {
            switch reason {
            case .coachViewAs: self = .coachViewAs
            case .notSleep: self = .notSleep
            case .nameNotDisplayable: self = .nameNotDisplayable
            case .agentUnavailable: self = .agentUnavailable
            case .sessionChanged: self = .sessionChanged
            }
        }
    }

    /// Why, beside the outcome, where the outcome alone does not say it.
    enum Detail: Equatable {
        /// The 409 named a timer not of the page's timer's scope, or not
        /// one the desktop can show.
        case canonicalNotShowable
        case canonicalRefused(status: Int, code: String)
        case canonicalUnreachable
        /// The agent's refusal of the token, as it gave it.
        case agentRefused(String)
    }

    /// The answer's `native` member.
    struct Native: Equatable {
        let outcome: Outcome
        let detail: Detail?

        init(_ outcome: Outcome, _ detail: Detail? = nil) {
            self.outcome = outcome
            self.detail = detail
        }
    }

    /// The timer a conflict's answer shows beside the refusal.
    enum Canonical: Equatable {
        /// As the 409 named it.
        case named
        /// As the platform stored it again with a token request.
        case stored
    }

    /// The answer to the call.
    enum Reply: Equatable {
        /// Saved on the platform: the stored timer, and what became of it
        /// on the desktop.
        case saved(Native)
        /// The platform's 409 scope_conflict, with its canonical timer and
        /// what became of that one on the desktop.
        case conflict(Native, shows: Canonical)
        case refused(status: Int, code: String)
        case unreachable
    }

    /// The canonical timer a 409 named, as the shell found it.
    enum NamedTimer: Equatable {
        /// Of the page's timer's scope and well-formed: it can be upserted
        /// and shown instead.
        case showable
        case notShowable
    }

    /// The platform's answer to PUT /active-timers/{id}.
    enum PlatformAnswer: Equatable {
        /// Stored. `tokenIssued`: the reply holds a native action token the
        /// agent can take for a name it can show; `sessionLive`: the live
        /// session is still the timer's own (`TokenRequestRule.stillAsks`).
        case stored(tokenIssued: Bool, sessionLive: Bool)
        /// An error reply (or a success without a timer); `named` is the
        /// timer its body names, when it names one.
        case refused(status: Int, code: String, named: NamedTimer?)
        case unreachable
    }

    enum State: Equatable {
        /// The page's timer, before the agent was asked whether it answers.
        case askingAgent(actorMode: Session.ActorMode, activity: ActivityType, nameDisplayable: Bool)
        /// The page's timer (or a renewal's) went to the platform.
        case putting(TokenRequestRule.Decision, adoptsCanonical: Bool)
        /// The canonical timer a 409 named went to the platform instead.
        case puttingCanonical
        /// The token went to the agent; `conflict`: for the canonical timer.
        case mirroring(conflict: Bool)
        case answered
    }

    private(set) var state: State

    /// The page's upsert of a timer.
    init(actorMode: Session.ActorMode, activity: ActivityType, nameDisplayable: Bool) {
        state = .askingAgent(actorMode: actorMode, activity: activity, nameDisplayable: nameDisplayable)
    }

    /// A renewal: the timer the agent holds goes to the platform again with
    /// a token request, once the agent answered.
    static func renewal() -> UpsertMachine {
        UpsertMachine(state: .putting(.ask, adoptsCanonical: false))
    }

    private init(state: State) {
        self.state = state
    }

    /// Whether the agent is worth asking whether it answers: only when its
    /// answer alone can still decide for a token.
    var asksAgent: Bool {
        guard case .askingAgent(let actorMode, let activity, let nameDisplayable) = state else { return false }
        return TokenRequestRule.asksAgent(actorMode: actorMode, activity: activity, nameDisplayable: nameDisplayable)
    }

    enum AgentAnsweredAction: Equatable {
        /// PUT the page's timer, with a token request or without.
        case putTimer(requestToken: Bool)
    }

    /// The agent answered at its name, or did not (or was not asked).
    mutating func agentAnswered(_ answers: Bool) -> AgentAnsweredAction? {
        guard case .askingAgent(let actorMode, let activity, let nameDisplayable) = state else { return nil }
        let decision = TokenRequestRule.upsert(
            actorMode: actorMode, activity: activity, nameDisplayable: nameDisplayable, agentAnswers: answers)
        state = .putting(decision, adoptsCanonical: true)
        return .putTimer(requestToken: decision == .ask)
    }

    enum PlatformAnsweredAction: Equatable {
        case reply(Reply)
        /// PUT the canonical timer the 409 named, with a token request.
        case putCanonical
        /// Remember the timer and hand its token to the agent.
        case mirror
    }

    /// The platform answered the PUT of the page's timer, or of the
    /// canonical one.
    mutating func platformAnswered(_ answer: PlatformAnswer) -> PlatformAnsweredAction? {
        switch state {
        case .putting(let decision, let adoptsCanonical):
            return timerAnswered(answer, decision: decision, adoptsCanonical: adoptsCanonical)
        case .puttingCanonical:
            return canonicalAnswered(answer)
        case .askingAgent, .mirroring, .answered:
            return nil
        }
    }

    private mutating func timerAnswered(
        _ answer: PlatformAnswer, decision: TokenRequestRule.Decision, adoptsCanonical: Bool
    ) -> PlatformAnsweredAction {
        switch answer {
        case .unreachable:
            state = .answered
            return .reply(.unreachable)
        case .refused(409, "scope_conflict", let named?) where adoptsCanonical:
            if case .dontAsk(let reason) = decision {
                state = .answered
                return .reply(.conflict(Native(Outcome(reason)), shows: .named))
            }
            guard named == .showable else {
                state = .answered
                return .reply(.conflict(Native(.tokenNotIssued, .canonicalNotShowable), shows: .named))
            }
            state = .puttingCanonical
            return .putCanonical
        case .refused(let status, let code, _):
            state = .answered
            return .reply(.refused(status: status, code: code))
        case .stored(let tokenIssued, let sessionLive):
            if case .dontAsk(let reason) = decision {
                state = .answered
                return .reply(.saved(Native(Outcome(reason))))
            }
            return handOver(tokenIssued: tokenIssued, sessionLive: sessionLive, conflict: false)
        }
    }

    private mutating func canonicalAnswered(_ answer: PlatformAnswer) -> PlatformAnsweredAction {
        switch answer {
        case .stored(let tokenIssued, let sessionLive):
            return handOver(tokenIssued: tokenIssued, sessionLive: sessionLive, conflict: true)
        case .refused(let status, let code, _):
            state = .answered
            return .reply(.conflict(Native(.tokenNotIssued, .canonicalRefused(status: status, code: code)), shows: .named))
        case .unreachable:
            state = .answered
            return .reply(.conflict(Native(.tokenNotIssued, .canonicalUnreachable), shows: .named))
        }
    }

    /// A token was asked for and the timer stored: it goes to the agent
    /// when one was issued, and only for the session it was asked for
    /// (signed out or switched while the platform answered: a token is not
    /// handed over for a session that ended).
    private mutating func handOver(tokenIssued: Bool, sessionLive: Bool, conflict: Bool) -> PlatformAnsweredAction {
        let settled: (Native) -> PlatformAnsweredAction = { native in
            conflict ? .reply(.conflict(native, shows: .stored)) : .reply(.saved(native))
        }
        guard tokenIssued else {
            state = .answered
            return settled(Native(.tokenNotIssued))
        }
        guard sessionLive else {
            state = .answered
            return settled(Native(.sessionChanged))
        }
        state = .mirroring(conflict: conflict)
        return .mirror
    }

    enum MirrorAnsweredAction: Equatable {
        /// The agent holds no token of ours now: this upsert revoked the
        /// one it had. Comes before the reply.
        case forgetTimer
        case reply(Reply)
    }

    /// The agent took the token (`refusal` nil), or refused it.
    mutating func mirrorAnswered(refusal: String?) -> [MirrorAnsweredAction] {
        guard case .mirroring(let conflict) = state else { return [] }
        state = .answered
        let native = refusal.map { Native(.agentUnavailable, .agentRefused($0)) } ?? Native(.mirrored)
        let reply: Reply = conflict ? .conflict(native, shows: .stored) : .saved(native)
        return refusal == nil ? [.reply(reply)] : [.forgetTimer, .reply(reply)]
    }
}
