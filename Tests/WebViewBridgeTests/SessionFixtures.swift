import SleepTimerCore
@testable import WebViewBridge

/// The sessions the bridge's rule tests sign in with: one user's own family
/// on one platform, and each thing a switch can change.
enum SessionFixtures {
    static let origin = "https://api.example.com"
    static let otherOrigin = "https://api.other.example.com"
    static let user = "7d4c8c1e-2a55-4bb3-9e21-5f0d6a9b1c01"
    static let otherUser = "7d4c8c1e-2a55-4bb3-9e21-5f0d6a9b1c09"
    static let family = "0b9f4a7e-6c1d-4e2a-8f3b-2d5c7e9a1b02"
    static let otherFamily = "0b9f4a7e-6c1d-4e2a-8f3b-2d5c7e9a1b03"

    static func session(origin: String = origin, user: String = user, family: String = family,
                        mode: Session.ActorMode = .selfMode, token: String = "family-token-1") -> Session {
        Session(apiOrigin: try! APIOrigin(parsing: origin), userID: UserID(user)!, accessToken: BearerToken(token),
                actorMode: mode, familySubjectID: FamilySubjectID(family)!)
    }

    static func scope(origin: String = origin, user: String = user, family: String = family) -> TimerScope {
        TimerScope(apiOrigin: try! APIOrigin(parsing: origin), userID: UserID(user)!,
                   familySubjectID: FamilySubjectID(family)!)
    }
}
