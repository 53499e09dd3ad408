import SleepTimerCore

/// The family's sign-in (bearer) token, held in this process's memory only:
/// never written, never sent to the agent, never logged or echoed. Every
/// textual form is redacted.
struct BearerToken: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable, CustomLeafReflectable {
    private let value: String

    init(_ value: String) { self.value = value }

    var description: String { "BearerToken(redacted)" }
    var debugDescription: String { description }
    var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }

    /// The Authorization header value, for the platform requests alone.
    var authorization: String { "Bearer \(value)" }

    static let maximumLength = 16 * 1024
}

/// Whose WebView this is: the platform, the signed-in user, and whether the
/// user acts for their own family or views another family as a coach.
struct Session {
    enum ActorMode: String {
        case selfMode = "self"
        case coach
    }

    let apiOrigin: APIOrigin
    let userID: UserID
    let accessToken: BearerToken
    let actorMode: ActorMode
    let familySubjectID: FamilySubjectID
}

extension Session {
    /// Whose timers these are on the desktop.
    var scope: TimerScope { TimerScope(apiOrigin: apiOrigin, userID: userID, familySubjectID: familySubjectID) }
}
