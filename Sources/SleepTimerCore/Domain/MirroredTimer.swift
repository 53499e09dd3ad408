/// Whose timer it is: the platform it came from, the signed-in user and the
/// family. Every stored row belongs to exactly one scope, and a scope is
/// what sign-out and account deletion remove.
public struct TimerScope: Hashable, Sendable {
    public let apiOrigin: APIOrigin
    public let userID: UserID
    public let familySubjectID: FamilySubjectID

    public init(apiOrigin: APIOrigin, userID: UserID, familySubjectID: FamilySubjectID) {
        self.apiOrigin = apiOrigin
        self.userID = userID
        self.familySubjectID = familySubjectID
    }
}

/// A running Sleep timer as the desktop mirrors it: display data only, plus
/// the native action token that can complete it.
public struct MirroredTimer: Sendable, Equatable {
    public let id: TimerID
    public let scope: TimerScope
    public let babyID: BabyID
    public let babyName: BabyName
    public let startedAt: Instant
    public let timeZone: TimeZoneName
    /// Grows with every change on the platform; a lower one is stale.
    public let revision: Int64
    /// nil once the token is used up or refused.
    public let token: ActionToken?
    /// When the token stops being accepted. Kept after the token itself is
    /// gone: it is also when the mirror of a timer the desktop can no longer
    /// complete is dropped.
    public let tokenExpiresAt: Instant

    public init(
        id: TimerID, scope: TimerScope, babyID: BabyID, babyName: BabyName, startedAt: Instant,
        timeZone: TimeZoneName, revision: Int64, token: ActionToken?, tokenExpiresAt: Instant
    ) {
        self.id = id
        self.scope = scope
        self.babyID = babyID
        self.babyName = babyName
        self.startedAt = startedAt
        self.timeZone = timeZone
        self.revision = revision
        self.token = token
        self.tokenExpiresAt = tokenExpiresAt
    }

    public func deepLink(base: DeepLinkBase) -> DeepLink {
        DeepLink(base: base, familySubjectID: scope.familySubjectID, babyID: babyID, timerID: id)
    }

    /// The token with its expiry, while there is one.
    public var nativeToken: NativeActionToken? {
        token.map { NativeActionToken(token: $0, expiresAt: tokenExpiresAt) }
    }

    /// Whether the desktop can complete this timer by itself right now.
    public func canCompleteNatively(at now: Instant) -> Bool {
        token != nil && now < tokenExpiresAt
    }
}

/// Where a mirrored timer stands on the desktop.
public enum TimerState: String, Sendable, CaseIterable {
    /// Running; completing it is possible while its token is valid.
    case running
    /// Still running, but its token ran out: the app has to finish it.
    case tokenExpired = "token-expired"
    /// Completed on the desktop; the completion is recorded and being sent.
    case saving
    /// The completion was refused for good (a bad request, or the token ran
    /// out while the platform could not be reached).
    case saveFailed = "save-failed"
    /// The token can no longer complete it; the app has to finish it.
    case needsApp = "needs-app"
}

/// Where a recorded completion stands.
public enum CompletionState: String, Sendable, CaseIterable {
    /// Recorded, to be sent (again).
    case pending
    /// Refused for good, or the token expired before it could be sent.
    case failed
    /// The platform no longer accepts the token; the app has to finish it.
    case needsApp = "needs-app"

    /// What the timer shows while its completion is in this state.
    public var timerState: TimerState {
        switch self {
        case .pending: return .saving
        case .failed: return .saveFailed
        case .needsApp: return .needsApp
        }
    }
}
