import GLibParsing
import SleepTimerCore

/// The ids, moment, tokens and timers the unit tests share, so that every
/// target tests with the same family and the same canary.
public enum Fixtures {
    /// 2026-11-29T21:41:00Z
    public static let now = Instant(millisecondsSince1970: 1_795_988_460_000)

    /// A token that must never show up anywhere but where it is sent.
    public static let canary = "dflnat_CANARY_q8Zr2mXv0Lw9sT4kP1nB7cY3uH6eJ5dA"

    /// A real Supabase-style access token shape: header.payload.signature.
    public static let jwt =
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwiZXhwIjoxOTAwMDAwMDAwfQ.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"

    // MARK: As another process sends them

    public static let timerID = "3f2504e0-4f89-41d3-9a0c-0305e82c3301"
    public static let userID = "9b2f5c8e-1d4a-4e6b-8c3f-2a7d9e0b1c4f"
    public static let familyID = "c56a4180-65aa-42ec-a945-5fd21dec0538"
    public static let babyID = "7d444840-9dc0-11d1-b245-5ffdce74fad2"
    public static let origin = "https://api.dreamsforlittles.example"

    // MARK: Parsed

    public static let apiOrigin = try! APIOrigin(parsing: origin)
    public static let user = UserID(userID)!
    public static let otherUser = UserID("0b2f5c8e-1d4a-4e6b-8c3f-2a7d9e0b1c40")!
    public static let family = FamilySubjectID(familyID)!
    public static let otherFamily = FamilySubjectID("d56a4180-65aa-42ec-a945-5fd21dec0539")!
    public static let baby = BabyID(babyID)!
    public static let scope = TimerScope(apiOrigin: apiOrigin, userID: user, familySubjectID: family)

    /// The index-th of a run of timer ids, for tests with many timers.
    public static func timerID(_ index: Int) -> TimerID {
        let suffix = String(index, radix: 16)
        return TimerID("00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - suffix.count) + suffix)!
    }

    /// A valid mirrored timer, started 83 minutes before `now`.
    public static func timer(
        _ index: Int, scope: TimerScope = scope, revision: Int64 = 1, name: String = "Maya",
        token: String? = canary, expiresIn: Int64 = 12 * Milliseconds.hour
    ) -> MirroredTimer {
        MirroredTimer(
            id: timerID(index), scope: scope, babyID: baby,
            babyName: try! BabyName(validating: name), startedAt: now.adding(milliseconds: -83 * Milliseconds.minute),
            timeZone: TimeZoneName("Europe/Berlin")!, revision: revision, token: token.map(ActionToken.init(unvalidated:)),
            tokenExpiresAt: now.adding(milliseconds: expiresIn))
    }

    // MARK: A Mirror call and its rules

    public static let mirrorRule = MirrorRule(
        allowedOrigins: AllowedOrigins([apiOrigin, try! APIOrigin(parsing: "http://127.0.0.1:8443")]),
        timeZones: GLibTimeZones(path: "/usr/share/zoneinfo"), base64: GLibBase64())

    /// A valid Mirror request as it arrives, changed by `change`.
    public static func request(_ change: (inout MirrorRequest) -> Void = { _ in }) -> MirrorRequest {
        var request = MirrorRequest(
            timerID: timerID, apiOrigin: origin, userID: userID, familySubjectID: familyID, babyID: babyID,
            babyName: "Maya", activityType: "sleep", actorMode: "self",
            startedAtMilliseconds: now.millisecondsSince1970 - 83 * Milliseconds.minute,
            timeZone: "Europe/Berlin", actionToken: ActionToken(unvalidated: canary),
            tokenExpiresAtMilliseconds: now.millisecondsSince1970 + 12 * Milliseconds.hour, revision: 3)
        change(&request)
        return request
    }
}
