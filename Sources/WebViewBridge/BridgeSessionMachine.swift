import SleepTimerCore

/// Whose WebView the bridge serves, and what a change of it means for the
/// desktop, decided as values. A first sign-in finds nothing to clear. A
/// switch of user or of platform origin, and a sign-out, forget every timer
/// mirrored in this run (no renewal outlives its session) and have the
/// agent purge the previous user's timers on that platform, so that no
/// token of one user stays on a desktop another user signs in to. A new
/// token, another family or another mode for the same user on the same
/// platform keeps them: the token rule refuses what that session may not
/// renew or hand over. A reconcile forgets the mirrored timers the web app
/// no longer lists as running.
struct BridgeSessionMachine {
    enum State {
        case signedOut
        case signedIn(Session)
    }

    private(set) var state: State = .signedOut

    /// The live session, if any.
    var session: Session? {
        guard case .signedIn(let session) = state else { return nil }
        return session
    }

    /// Whose timers the agent purges: a user's on one platform, of every
    /// family of theirs.
    struct PurgeScope: Equatable {
        let apiOrigin: APIOrigin
        let userID: UserID

        init(_ session: Session) {
            apiOrigin = session.apiOrigin
            userID = session.userID
        }
    }

    // MARK: The bearer

    /// The shape of bearer token accepted from session.set: not empty, at
    /// most `BearerToken.maximumLength` bytes, no space and no control
    /// character (it goes into an Authorization header as it is). Nil when
    /// it is refused; what was refused is never echoed.
    static func bearer(_ text: String) -> BearerToken? {
        guard !text.isEmpty, text.utf8.count <= BearerToken.maximumLength,
            !text.utf8.contains(where: { $0 < 0x21 || $0 == 0x7F })
        else { return nil }
        return BearerToken(text)
    }

    // MARK: Events

    /// What a sign-in, a switch or a sign-out leads to: one type, since a
    /// switch and a sign-out both end the previous session the same way.
    enum SessionChangedAction: Equatable {
        /// Forget every timer mirrored in this run, with its renewals.
        case forgetAllTimers
        /// Have the agent purge these timers from the desktop.
        case purge(PurgeScope)
    }

    /// session.set: a sign-in, a new token, or a switch.
    mutating func sessionSet(_ new: Session) -> [SessionChangedAction] {
        let previous = session
        state = .signedIn(new)
        guard let previous, previous.apiOrigin != new.apiOrigin || previous.userID != new.userID else { return [] }
        return [.forgetAllTimers, .purge(PurgeScope(previous))]
    }

    /// session.clear, the sign-out: the session and its bearer token are
    /// forgotten whatever the agent then says.
    mutating func sessionCleared() -> [SessionChangedAction] {
        guard let previous = session else { return [] }
        state = .signedOut
        return [.forgetAllTimers, .purge(PurgeScope(previous))]
    }

    /// sleepTimers.reconcile with the web app's running timers; `mirrored`
    /// are the timers whose token this run handed over. Returns the timers
    /// no longer running in the web app, to forget with their renewals (the
    /// agent is told the running list as it came). None without a session:
    /// there is nobody's list to believe.
    func reconciled(running: [TimerID], mirrored: some Sequence<TimerID>) -> [TimerID] {
        guard session != nil else { return [] }
        let listed = Set(running)
        return mirrored.filter { !listed.contains($0) }
    }
}
