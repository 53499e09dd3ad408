/// A mirrored timer as the agent holds it, with where its completion
/// stands: what every decision about the timer starts from.
public struct StoredTimer: Sendable, Equatable {
    public let timer: MirroredTimer
    /// nil while no completion is recorded.
    public let completionState: CompletionState?
    /// Attempts to send the recorded completion that failed and may pass;
    /// 0 when none is recorded or none has failed yet.
    public let completionAttempts: Int

    public init(timer: MirroredTimer, completionState: CompletionState?, completionAttempts: Int = 0) {
        self.timer = timer
        self.completionState = completionState
        self.completionAttempts = completionAttempts
    }

    /// Where its completion stands; running when none is recorded.
    public var state: TimerState { completionState?.timerState ?? .running }

    /// What the desktop says of it at `now`: a running timer whose token
    /// ran out can no longer be completed here.
    public func state(at now: Instant) -> TimerState {
        state == .running && !timer.canCompleteNatively(at: now) ? .tokenExpired : state
    }

    /// Whether the desktop can complete it now: running, with a token that
    /// is still accepted. The one definition: List, the notification, the
    /// panel and the store's recording of a click all ask this.
    public func completion(at now: Instant) -> Completability {
        guard completionState == nil else { return .alreadyRecorded }
        guard let token = timer.token, timer.canCompleteNatively(at: now) else { return .noValidToken }
        return .completable(token)
    }

    public func canComplete(at now: Instant) -> Bool {
        if case .completable = completion(at: now) { return true }
        return false
    }
}

/// Whether the desktop can complete a timer now, and if not, why: each
/// reason is a different answer to the caller.
public enum Completability: Sendable, Equatable {
    /// Yes, with this token.
    case completable(ActionToken)
    /// A completion is recorded already: being saved, or it failed.
    case alreadyRecorded
    /// No token, or it ran out: the app has to finish the timer.
    case noValidToken
}

/// A completion recorded in the outbox.
public struct CompletionRecord: Sendable, Equatable {
    public let timerID: TimerID
    public let scope: TimerScope
    /// The moment of the click, by this desktop's clock; the request body
    /// carries it in the platform's.
    public let completedAt: Instant
    /// The exact bytes to send, every time; nil once the completion is over.
    public let requestBody: CompletionRequestBody?
    public let tokenExpiresAt: Instant
    public let attempts: Int
    public let nextAttemptAt: Instant
    public let lastError: String?
    public let state: CompletionState
    /// Whether its time was corrected once already, after the platform
    /// refused it: a second refusal is final.
    public let retimed: Bool

    public init(
        timerID: TimerID, scope: TimerScope, completedAt: Instant, requestBody: CompletionRequestBody?,
        tokenExpiresAt: Instant, attempts: Int, nextAttemptAt: Instant, lastError: String?, state: CompletionState,
        retimed: Bool = false
    ) {
        self.timerID = timerID
        self.scope = scope
        self.completedAt = completedAt
        self.requestBody = requestBody
        self.tokenExpiresAt = tokenExpiresAt
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.lastError = lastError
        self.state = state
        self.retimed = retimed
    }
}

/// The notification shown for a timer, as far as the agent keeps it.
public struct NotificationRecord: Sendable, Equatable {
    /// The server's id; 0 when none is shown.
    public let notificationID: UInt32
    /// The timer's displayed state when the user dismissed it; the
    /// notification stays away until that state changes.
    public let dismissedInState: String?
    /// The unique bus name of the server that gave out the id.
    public let serverOwner: String?

    public init(notificationID: UInt32, dismissedInState: String?, serverOwner: String? = nil) {
        self.notificationID = notificationID
        self.dismissedInState = dismissedInState
        self.serverOwner = serverOwner
    }
}
