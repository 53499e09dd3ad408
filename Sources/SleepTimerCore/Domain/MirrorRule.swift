import SleepTimersAPI

/// The keys the refusals below name.
private typealias Key = SleepTimers1.MirrorKey

/// A Mirror call as it arrives from another process, before any rule is
/// applied. The token is wrapped on arrival so that it never travels as a
/// plain string, even when the call is refused.
public struct MirrorRequest: Sendable {
    public var timerID: String
    public var apiOrigin: String
    public var userID: String
    public var familySubjectID: String
    public var babyID: String
    public var babyName: String
    public var activityType: String
    public var actorMode: String
    public var startedAtMilliseconds: Int64
    public var timeZone: String
    public var actionToken: ActionToken
    public var tokenExpiresAtMilliseconds: Int64
    public var revision: Int64
    /// The platform's clock minus this desktop's, as the caller measured it.
    public var platformClockOffset: Duration?

    public init(
        timerID: String, apiOrigin: String, userID: String, familySubjectID: String, babyID: String,
        babyName: String, activityType: String, actorMode: String, startedAtMilliseconds: Int64,
        timeZone: String, actionToken: ActionToken, tokenExpiresAtMilliseconds: Int64, revision: Int64 = 0,
        platformClockOffset: Duration? = nil
    ) {
        self.timerID = timerID
        self.apiOrigin = apiOrigin
        self.userID = userID
        self.familySubjectID = familySubjectID
        self.babyID = babyID
        self.babyName = babyName
        self.activityType = activityType
        self.actorMode = actorMode
        self.startedAtMilliseconds = startedAtMilliseconds
        self.timeZone = timeZone
        self.actionToken = actionToken
        self.tokenExpiresAtMilliseconds = tokenExpiresAtMilliseconds
        self.revision = revision
        self.platformClockOffset = platformClockOffset
    }

    /// A field of the request, as a refusal names it: the key of Mirror's
    /// dictionary that carries it, named once in the D-Bus API, so that a
    /// refusal's text and the caller's key are the same word.
    public typealias Field = SleepTimers1.MirrorKey
}

/// Why a timer was refused. The message is written for a person and never
/// contains the token or any other value the caller sent, only the name of
/// the field and the rule it broke.
public struct MirrorRejection: Error, Sendable, Equatable, CustomStringConvertible {
    /// The API's error name the refusal answers with (those a Mirror can
    /// meet: invalidArgument, notSleep, notSelfMode, bearerTokenRefused,
    /// originNotAllowed, tokenExpired).
    public typealias Code = SleepTimers1.ErrorName

    public let code: Code
    /// The field at fault.
    public let field: MirrorRequest.Field
    public let message: String

    public init(_ code: Code, field: MirrorRequest.Field, _ message: String) {
        self.code = code
        self.field = field
        self.message = message
    }

    public var description: String { message }
}

/// The rules every mirrored timer must pass, asked once per Mirror call: the
/// timer a request mirrors, or the first rule it breaks. It holds only its
/// settings (which origins, which zones, and how far in time a start and a
/// token's expiry may be).
public struct MirrorRule: Sendable {
    public var allowedOrigins: AllowedOrigins
    public var timeZones: any TimeZoneResolving
    /// How far ahead of the agent's clock a start may be (clock skew).
    public var maximumStartInFuture: Duration = .seconds(5 * 60)
    /// How long the longest sleep lasts: a timer started longer ago is a
    /// forgotten one, finished in the app.
    public static let longestSleep: Duration = .seconds(48 * 3600)
    /// The largest platform clock offset taken into account.
    public static let largestClockOffset: Duration = .seconds(24 * 3600)

    /// Whether a platform clock offset is one the agent takes into account
    /// (at most `largestClockOffset` either way): a Mirror with another is
    /// refused, and the bridge measures none other. The one check of the
    /// bound.
    public static func takesClockOffset(_ offset: Duration) -> Bool {
        offset <= largestClockOffset && offset >= .zero - largestClockOffset
    }
    /// How old a running Sleep timer may be before it is taken for a
    /// forgotten one.
    public var maximumStartAge: Duration = MirrorRule.longestSleep
    /// How far away a token's expiry may be; the platform issues tokens for
    /// hours, so anything longer is not one of its tokens, or one a leak
    /// would keep useful for too long.
    public var maximumTokenLifetime: Duration = .seconds(24 * 3600)

    /// Decodes a token's JWT header, to refuse bearer tokens.
    public var base64: any Base64Decoding

    public init(allowedOrigins: AllowedOrigins, timeZones: any TimeZoneResolving, base64: any Base64Decoding) {
        self.allowedOrigins = allowedOrigins
        self.timeZones = timeZones
        self.base64 = base64
    }

    /// The timer `request` mirrors, or why it is refused. Every rule is
    /// applied, in the order a person would want to hear about them: what
    /// kind of timer and whose it is first, then the token, then each field.
    public func mirroredTimer(for request: MirrorRequest, now: Instant) throws(MirrorRejection) -> MirroredTimer {
        try Self.checkKind(request)
        try checkToken(request.actionToken)
        let timerID = try Self.identifier(TimerID.self, request.timerID, field: .timerID)
        let userID = try Self.identifier(UserID.self, request.userID, field: .userID)
        let familyID = try Self.identifier(FamilySubjectID.self, request.familySubjectID, field: .familySubjectID)
        let babyID = try Self.identifier(BabyID.self, request.babyID, field: .babyID)
        let origin = try allowedOrigin(request.apiOrigin)
        let expiresAt = try tokenExpiry(request.tokenExpiresAtMilliseconds, now: now)
        let babyName: BabyName
        do {
            babyName = try BabyName(validating: request.babyName)
        } catch {
            throw MirrorRejection(.invalidArgument, field: .babyName, "\(Key.babyName.name) \(error.explanation).")
        }
        let startedAt = try start(request.startedAtMilliseconds, now: now)
        guard let zone = TimeZoneName(request.timeZone), timeZones.rules(for: zone) != nil else {
            throw MirrorRejection(
                .invalidArgument, field: .timeZone,
                "\(Key.timeZone.name) must be an IANA time zone name known to this system, such as Europe/Berlin.")
        }
        if let offset = request.platformClockOffset, !Self.takesClockOffset(offset) {
            throw MirrorRejection(
                .invalidArgument, field: .platformClockOffset,
                "\(Key.platformClockOffset.name) is more than a day; a clock that far off cannot be corrected for.")
        }
        guard request.revision >= 0 else {
            throw MirrorRejection(.invalidArgument, field: .revision, "\(Key.revision.name) must not be negative.")
        }
        return MirroredTimer(
            id: timerID,
            scope: TimerScope(apiOrigin: origin, userID: userID, familySubjectID: familyID),
            babyID: babyID, babyName: babyName, startedAt: startedAt, timeZone: zone,
            revision: request.revision, token: request.actionToken, tokenExpiresAt: expiresAt)
    }

    /// Only Sleep timers, and only a family member's own.
    private static func checkKind(_ request: MirrorRequest) throws(MirrorRejection) {
        let activity = ActivityType(rawValue: request.activityType)
        guard activity == .sleep else {
            let known = activity != nil
            throw MirrorRejection(
                .notSleep, field: .activityType,
                known
                    ? "Only Sleep timers are mirrored to the desktop; this is a \(request.activityType) timer."
                    : "Only Sleep timers are mirrored to the desktop; \(Key.activityType.name) must be \"\(ActivityType.sleep.rawValue)\".")
        }
        guard request.actorMode == "self" else {
            throw MirrorRejection(
                .notSelfMode, field: .actorMode,
                "Only a family member's own timers are mirrored; timers seen in coach view-as stay in the app.")
        }
    }

    private func checkToken(_ token: ActionToken) throws(MirrorRejection) {
        switch token.shapeProblem(base64: base64) {
        case nil:
            return
        case .looksLikeBearerToken:
            throw MirrorRejection(
                .bearerTokenRefused, field: .actionToken,
                "\(Key.actionToken.name) looks like a sign-in (bearer) token; the desktop agent only accepts the native action token issued for the timer."
            )
        case .empty:
            throw MirrorRejection(.invalidArgument, field: .actionToken, "\(Key.actionToken.name) is empty.")
        case .wrongLength:
            throw MirrorRejection(
                .invalidArgument, field: .actionToken,
                "\(Key.actionToken.name) must be \(ActionToken.lengthRange.lowerBound) to \(ActionToken.lengthRange.upperBound) characters long."
            )
        case .forbiddenCharacters:
            throw MirrorRejection(
                .invalidArgument, field: .actionToken,
                "\(Key.actionToken.name) may contain only letters, digits and the characters - _ . ~ + / =.")
        }
    }

    private func allowedOrigin(_ text: String) throws(MirrorRejection) -> APIOrigin {
        let origin: APIOrigin
        do {
            origin = try APIOrigin(parsing: text)
        } catch {
            throw MirrorRejection(.originNotAllowed, field: .apiOrigin, "\(Key.apiOrigin.name) \(error.explanation).")
        }
        guard allowedOrigins.contains(origin) else {
            throw MirrorRejection(
                .originNotAllowed, field: .apiOrigin,
                allowedOrigins.origins.isEmpty
                    ? "No API origin is allowed: allowed-origins in the configuration is an empty list."
                    : "\(Key.apiOrigin.name) is not one of the allowed API origins in the configuration.")
        }
        return origin
    }

    private func tokenExpiry(_ milliseconds: Int64, now: Instant) throws(MirrorRejection) -> Instant {
        let expiresAt = Instant(millisecondsSince1970: milliseconds)
        guard now < expiresAt else {
            throw MirrorRejection(
                .tokenExpired, field: .tokenExpiresAt,
                "The action token has already expired; the app has to issue a new one.")
        }
        guard expiresAt.duration(since: now) <= maximumTokenLifetime else {
            throw MirrorRejection(
                .invalidArgument, field: .tokenExpiresAt,
                "\(Key.tokenExpiresAt.name) is more than \(maximumTokenLifetime.components.seconds / 3600) hours away, longer than the platform's action tokens last."
            )
        }
        return expiresAt
    }

    private func start(_ milliseconds: Int64, now: Instant) throws(MirrorRejection) -> Instant {
        let startedAt = Instant(millisecondsSince1970: milliseconds)
        guard startedAt.duration(since: now) <= maximumStartInFuture else {
            throw MirrorRejection(
                .invalidArgument, field: .startedAt,
                "\(Key.startedAt.name) is more than \(maximumStartInFuture.components.seconds / 60) minutes in the future; check the device clock."
            )
        }
        guard now.duration(since: startedAt) <= maximumStartAge else {
            throw MirrorRejection(
                .invalidArgument, field: .startedAt,
                "\(Key.startedAt.name) is more than \(maximumStartAge.components.seconds / 3600) hours ago; such an old timer is finished in the app."
            )
        }
        return startedAt
    }

    private static func identifier<Kind>(
        _ type: Identifier<Kind>.Type, _ text: String, field: MirrorRequest.Field
    ) throws(MirrorRejection) -> Identifier<Kind> {
        guard let id = Identifier<Kind>(text) else {
            throw MirrorRejection(
                .invalidArgument, field: field,
                "\(field.name) must be a UUID such as 123e4567-e89b-12d3-a456-426614174000.")
        }
        return id
    }
}
