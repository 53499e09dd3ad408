import SleepTimerCore

/// Shared values for the core's tests.
enum Fixtures {
    /// 2026-11-29T21:41:00Z
    static let now = Instant(millisecondsSince1970: 1_795_988_460_000)

    /// A token that must never show up anywhere but where it is sent.
    static let canary = "dflnat_CANARY_q8Zr2mXv0Lw9sT4kP1nB7cY3uH6eJ5dA"

    /// A real Supabase-style access token shape: header.payload.signature.
    static let jwt =
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwiZXhwIjoxOTAwMDAwMDAwfQ.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"

    static let timerID = "3f2504e0-4f89-41d3-9a0c-0305e82c3301"
    static let userID = "9b2f5c8e-1d4a-4e6b-8c3f-2a7d9e0b1c4f"
    static let familyID = "c56a4180-65aa-42ec-a945-5fd21dec0538"
    static let babyID = "7d444840-9dc0-11d1-b245-5ffdce74fad2"
    static let origin = "https://api.dreamsforlittles.example"

    static let policy = MirrorPolicy(
        allowedOrigins: AllowedOrigins([try! APIOrigin(parsing: origin), try! APIOrigin(parsing: "http://127.0.0.1:8443")]),
        timeZones: ZoneInfoDirectory(path: "/usr/share/zoneinfo"))

    static func request(_ change: (inout MirrorRequest) -> Void = { _ in }) -> MirrorRequest {
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
