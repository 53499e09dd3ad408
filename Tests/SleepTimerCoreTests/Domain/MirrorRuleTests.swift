import DFLTestSupport
import Testing
import SleepTimerCore
import SleepTimersAPI

@Suite struct MirrorRuleTests {
    let rule = Fixtures.mirrorRule
    let now = Fixtures.now

    private func rejection(_ change: (inout MirrorRequest) -> Void) -> MirrorRejection? {
        do {
            _ = try rule.mirroredTimer(for: Fixtures.request(change), now: now)
            return nil
        } catch {
            return error
        }
    }

    @Test func aSelfModeSleepTimerPassesWithEveryFieldKept() throws {
        let timer = try rule.mirroredTimer(for: Fixtures.request(), now: now)
        #expect(timer.id.string == Fixtures.timerID)
        #expect(timer.scope.apiOrigin.description == Fixtures.origin)
        #expect(timer.scope.userID.string == Fixtures.userID)
        #expect(timer.scope.familySubjectID.string == Fixtures.familyID)
        #expect(timer.babyID.string == Fixtures.babyID)
        #expect(timer.babyName.text == "Maya")
        #expect(timer.timeZone.identifier == "Europe/Berlin")
        #expect(timer.revision == 3)
        #expect(timer.nativeToken?.token == ActionToken(unvalidated: Fixtures.canary))
        #expect(timer.canCompleteNatively(at: now))
    }

    @Test(arguments: ["breastfeeding", "pumping", "Sleep", "", "feeding"])
    func refusesEveryActivityButSleep(_ type: String) {
        #expect(rejection { $0.activityType = type }?.code == .notSleep)
    }

    @Test func aKnownKindIsNamedAndAnyOtherGetsTheWordItMustBe() {
        #expect(rejection { $0.activityType = "pumping" }?.message.contains("this is a pumping timer") == true)
        #expect(rejection { $0.activityType = "feeding" }?.message.contains("must be \"sleep\"") == true)
    }

    @Test(arguments: ["coach", "view-as", "", "SELF"])
    func refusesCoachViewAsAndAnyOtherActorMode(_ mode: String) {
        let refusal = rejection { $0.actorMode = mode }
        #expect(refusal?.code == .notSelfMode)
        #expect(refusal?.message.contains("coach") == true)
    }

    @Test func refusesABearerTokenShapedLikeAJWT() {
        let refusal = rejection { $0.actionToken = ActionToken(unvalidated: Fixtures.jwt) }
        #expect(refusal?.code == .bearerTokenRefused)
        #expect(refusal?.message.contains("eyJ") == false)
    }

    @Test func refusesAnExpiredToken() {
        #expect(rejection { $0.tokenExpiresAtMilliseconds = now.millisecondsSince1970 }?.code == .tokenExpired)
        #expect(rejection { $0.tokenExpiresAtMilliseconds = now.millisecondsSince1970 + 1 } == nil)
    }

    @Test func acceptsATokenExpiringAtTheLongestLifetime() {
        #expect(rejection { $0.tokenExpiresAtMilliseconds = now.millisecondsSince1970 + Fixtures.mirrorRule.maximumTokenLifetime.wholeMilliseconds } == nil)
        #expect(rejection { $0.tokenExpiresAtMilliseconds = now.millisecondsSince1970 + Fixtures.mirrorRule.maximumTokenLifetime.wholeMilliseconds + 1 }?
            .field == .tokenExpiresAt)
    }

    @Test func refusesATokenExpiringImplausiblyLate() {
        #expect(rejection { $0.tokenExpiresAtMilliseconds = now.millisecondsSince1970 + 31 * Milliseconds.day }?.field
            == .tokenExpiresAt)
    }

    @Test(arguments: ["timer_id", "user_id", "family_subject_id", "baby_id"])
    func refusesMalformedUUIDsNamingTheField(_ field: String) {
        let refusal = rejection { request in
            switch field {
            case "timer_id": request.timerID = "not-a-uuid"
            case "user_id": request.userID = "1234"
            case "family_subject_id": request.familySubjectID = ""
            default: request.babyID = "7d444840-9dc0-11d1-b245-5ffdce74fad"
            }
        }
        #expect(refusal?.code == .invalidArgument)
        #expect(refusal?.field.name == field)
        #expect(refusal?.message.contains(field) == true)
    }

    @Test(arguments: [
        "http://api.dreamsforlittles.example", "https://user@api.dreamsforlittles.example",
        "https://api.dreamsforlittles.example/v1", "https://api.dreamsforlittles.example?a",
        "https://api.dreamsforlittles.example#f", "https://other.example", "http://127.0.0.1:9999",
    ])
    func refusesOriginsThatAreNotAllowed(_ origin: String) {
        #expect(rejection { $0.apiOrigin = origin }?.code == .originNotAllowed)
    }

    @Test func acceptsAnAllowedLoopbackHTTPOrigin() {
        #expect(rejection { $0.apiOrigin = "http://127.0.0.1:8443" } == nil)
    }

    @Test func explainsAnEmptyAllowList() {
        var empty = rule
        empty.allowedOrigins = AllowedOrigins([])
        #expect(throws: MirrorRejection.self) { try empty.mirroredTimer(for: Fixtures.request(), now: now) }
        do {
            _ = try empty.mirroredTimer(for: Fixtures.request(), now: now)
        } catch {
            #expect(error.message.contains("allowed-origins"))
        }
    }

    @Test(arguments: [String(repeating: "a", count: 65), "Ma\u{202E}ya", "Ma\nya", "  "])
    func refusesBadBabyNames(_ name: String) {
        let refusal = rejection { $0.babyName = name }
        #expect(refusal?.code == .invalidArgument)
        #expect(refusal?.field == .babyName)
    }

    @Test func refusesAStartMoreThanFiveMinutesAhead() {
        let limit = now.millisecondsSince1970 + 5 * Milliseconds.minute
        #expect(rejection { $0.startedAtMilliseconds = limit } == nil)
        #expect(rejection { $0.startedAtMilliseconds = limit + 1 }?.field == .startedAt)
    }

    @Test func refusesAStartMoreThan48HoursOld() {
        let limit = now.millisecondsSince1970 - 48 * Milliseconds.hour
        #expect(rejection { $0.startedAtMilliseconds = limit } == nil)
        #expect(rejection { $0.startedAtMilliseconds = limit - 1 }?.field == .startedAt)
        #expect(rejection { $0.startedAtMilliseconds = .min }?.field == .startedAt)
        #expect(rejection { $0.startedAtMilliseconds = .max }?.field == .startedAt)
    }

    @Test(arguments: ["Mars/Olympus_Mons", "../../etc/passwd", "Europe/../Europe/Berlin", "", "/etc/localtime",
                      "zone.tab", "Europe/Berlin\n"])
    func refusesUnknownOrMalformedTimeZones(_ zone: String) {
        #expect(rejection { $0.timeZone = zone }?.field == .timeZone)
    }

    @Test func refusesANegativeRevision() {
        #expect(rejection { $0.revision = -1 }?.field == .revision)
        #expect(rejection { $0.revision = 0 } == nil)
    }

    @Test func aPlatformClockOffsetOfUpToADayIsTakenAndMoreIsRefused() {
        #expect(rejection { $0.platformClockOffset = .milliseconds(-Milliseconds.day) } == nil)
        #expect(rejection { $0.platformClockOffset = .milliseconds(Milliseconds.day) } == nil)
        #expect(rejection { $0.platformClockOffset = .milliseconds(Milliseconds.day + 1) }?.field == .platformClockOffset)
        #expect(rejection { $0.platformClockOffset = .milliseconds(Int64.min) }?.field == .platformClockOffset)
    }

    @Test func theOneClockOffsetBoundIsADayEitherWay() {
        #expect(MirrorRule.takesClockOffset(.milliseconds(Milliseconds.day)))
        #expect(MirrorRule.takesClockOffset(.milliseconds(-Milliseconds.day)))
        #expect(!MirrorRule.takesClockOffset(.milliseconds(Milliseconds.day + 1)))
        #expect(!MirrorRule.takesClockOffset(.milliseconds(-Milliseconds.day - 1)))
    }

    @Test func aTokenLongerThanTheLimitIsRefusedInHours() {
        let refusal = rejection { $0.tokenExpiresAtMilliseconds = Fixtures.now.millisecondsSince1970 + 25 * Milliseconds.hour }
        #expect(refusal?.field == .tokenExpiresAt)
        #expect(refusal?.message.contains("24 hours") == true)
    }

    @Test func noRefusalEverQuotesTheToken() {
        let changes: [(inout MirrorRequest) -> Void] = [
            { $0.activityType = "pumping" }, { $0.actorMode = "coach" }, { $0.timerID = "x" },
            { $0.apiOrigin = "http://evil.example" }, { $0.tokenExpiresAtMilliseconds = 0 },
            { $0.babyName = "" }, { $0.startedAtMilliseconds = 0 }, { $0.timeZone = "Nope" },
            { $0.actionToken = ActionToken(unvalidated: Fixtures.canary + " ") },
        ]
        for change in changes {
            let refusal = rejection(change)
            #expect(refusal != nil)
            #expect(refusal.map { !$0.message.contains("CANARY") && !"\($0)".contains("CANARY") } == true)
        }
    }
}
