import HTTPClient
import SleepTimerCore

/// sleepTimer.upsert: the platform first, the desktop second. What the
/// desktop can or cannot show never stops the timer from being saved on the
/// platform (the in-app timer must stay usable when the native side fails):
/// the answer says what became of it on the desktop, and why.
extension SleepTimerBridge {
    /// The timer goes to the platform with the family's bearer token; for
    /// the family in self-mode, a Sleep timer, a name the desktop can show
    /// and an agent that answers, the platform is asked for a native action
    /// token, which goes on to the agent in a pipe. A 409 scope_conflict
    /// names the canonical timer, which is mirrored instead, and the
    /// WebView is told which it is. `TokenRequestRule` decides whether a
    /// token is asked for, and why not.
    func upsert(_ params: Parameters, _ reply: @escaping (Result<JSONValue, RPCError>) -> Void) throws(RPCError) {
        guard let session else { throw Self.noSession() }
        let timer = try UpsertTimer(params)
        let nameDisplayable = timer.shownName != nil
        let asksAgent = TokenRequestRule.asksAgent(
            actorMode: session.actorMode, activity: timer.activity, nameDisplayable: nameDisplayable)
        agentVersion(if: asksAgent) { [weak self] agentVersion in
            guard let self else { return }
            let decision = TokenRequestRule.upsert(actorMode: session.actorMode, activity: timer.activity,
                                                   nameDisplayable: nameDisplayable, agentAnswers: agentVersion != nil)
            self.putTimer(timer, session: session, requestToken: decision == .ask) { [weak self] answer in
                guard let self else { return }
                switch answer {
                case .unreachable:
                    reply(.failure(Self.platformUnreachable()))
                case .refused(409, "scope_conflict", let document?) where document["timer"] != nil:
                    self.adoptCanonical(document["timer"]!, insteadOf: timer, session: session,
                                        decision: decision, reply: reply)
                case .refused(let status, let code, _):
                    reply(.failure(Self.platformRefused(status, code: code)))
                case .stored(let platform):
                    self.handOver(timer, session: session, platform: platform, decision: decision) {
                        reply(.success(.object([("timer", platform.timer), ("native", $0)])))
                    }
                }
            }
        }
    }

    /// The `native` member of an answer.
    static func native(mirrored: Bool, _ reason: String, detail: String? = nil) -> JSONValue {
        var members: [(String, JSONValue)] = [("mirrored", .bool(mirrored)), ("reason", .string(reason))]
        if let detail { members.append(("detail", .string(detail))) }
        return .object(members)
    }

    /// The canonical timer wins: when the page's timer could have been
    /// mirrored, the canonical one is upserted with a token request (a 409
    /// carries no token) and mirrored; either way the WebView gets the
    /// platform's refusal with the canonical timer beside it.
    private func adoptCanonical(_ canonical: JSONValue, insteadOf timer: UpsertTimer, session: Session,
                                decision: TokenRequestRule.Decision,
                                reply: @escaping (Result<JSONValue, RPCError>) -> Void) {
        let tell: (JSONValue, JSONValue) -> Void = { timer, native in
            reply(.failure(Self.platformRefused(409, code: "scope_conflict",
                                                more: [("canonicalTimer", timer), ("native", native)])))
        }
        if case .dontAsk(let reason) = decision { return tell(canonical, Self.native(mirrored: false, reason.rawValue)) }
        guard let adopted = UpsertTimer(canonical: canonical, insteadOf: timer) else {
            return tell(canonical, Self.native(mirrored: false, "token-not-issued",
                                               detail: "the platform's canonical timer is not one the desktop can show"))
        }
        putTimer(adopted, session: session, requestToken: true) { [weak self] answer in
            guard let self else { return }
            switch answer {
            case .stored(let platform):
                self.handOver(adopted, session: session, platform: platform, decision: .ask) { tell(platform.timer, $0) }
            case .refused(let status, let code, _):
                tell(canonical, Self.native(mirrored: false, "token-not-issued",
                                            detail: "the platform refused the canonical timer's upsert (\(status) \(code))"))
            case .unreachable:
                tell(canonical, Self.native(mirrored: false, "token-not-issued",
                                            detail: "the platform could not be reached for the canonical timer"))
            }
        }
    }

    /// Gives the agent the timer with its token, when one was asked for
    /// and issued, and says what became of it on the desktop (`native`).
    func handOver(_ timer: UpsertTimer, session: Session, platform: PlatformTimer, decision: TokenRequestRule.Decision,
                  done: @escaping (JSONValue) -> Void) {
        if case .dontAsk(let reason) = decision { return done(Self.native(mirrored: false, reason.rawValue)) }
        guard let data = MirrorData(issuedFor: timer, session: session, platform: platform) else {
            return done(Self.native(mirrored: false, "token-not-issued"))
        }
        // Signed out or switched while the platform answered: the token is
        // not handed over for a session that ended.
        if case .dontAsk(let reason) = TokenRequestRule.stillAsks(for: session.scope, session: self.session) {
            return done(Self.native(mirrored: false, reason.rawValue))
        }
        // Remembered before the call: the agent may say the token expires
        // soon before it answers.
        remember(timer, session: session, expiresAt: data.expiresAt)
        mirror(data) { [weak self] refusal in
            guard let refusal else { return done(Self.native(mirrored: true, "mirrored")) }
            // The agent holds no token of ours now: this upsert revoked the
            // one it had.
            self?.forget(timer.id)
            done(Self.native(mirrored: false, "agent-unavailable", detail: refusal))
        }
    }

    // MARK: The platform

    /// The timer as the platform stored it, the whole reply (which holds the
    /// native action token when one was issued), and the platform's clock
    /// offset as its answer showed it.
    struct PlatformTimer {
        let timer: JSONValue
        let document: JSONValue
        let clockOffset: Int64?
    }

    enum PlatformAnswer {
        case stored(PlatformTimer)
        /// An error reply (or a success without a timer), with its body
        /// when it was JSON.
        case refused(status: Int, code: String, document: JSONValue?)
        case unreachable
    }

    /// PUT /active-timers/{id} with the session's bearer token; the moments
    /// around it give the platform's clock offset.
    func putTimer(_ timer: UpsertTimer, session: Session, requestToken: Bool,
                  done: @escaping (PlatformAnswer) -> Void) {
        let sentAt = clock.now()
        http.send(
            "PUT", origin: session.apiOrigin, path: "/active-timers/\(timer.id.string)",
            body: timer.body(session: session, requestToken: requestToken),
            headers: [("Authorization", session.accessToken.authorization)]
        ) { [weak self] result in
            guard let self else { return }
            switch result {
            case .failure(let error):
                self.log.log(.warning, "The platform could not be reached for timer \(timer.id): \(error.description)")
                done(.unreachable)
            case .success(let response):
                done(Self.answer(response, clockOffset: Self.clockOffset(response, sentAt: sentAt, receivedAt: self.clock.now())))
            }
        }
    }

    private static func answer(_ response: HTTPResponse, clockOffset: Int64?) -> PlatformAnswer {
        let document = try? JSONParser.parse(response.body, maximumDepth: JSONRPCServer.maximumDepth)
        guard (200..<300).contains(response.status), let document, let timer = document["timer"] else {
            let code = document?["error"]?["code"]?.stringValue ?? "unexpected_reply"
            return .refused(status: response.status, code: code, document: document)
        }
        return .stored(PlatformTimer(timer: timer, document: document, clockOffset: clockOffset))
    }

    /// The platform's clock minus ours from the answer's Date, when it has
    /// one the agent takes (at most a day either way).
    static func clockOffset(_ response: HTTPResponse, sentAt: Instant, receivedAt: Instant) -> Int64? {
        guard let date = response.header("Date"),
            let estimate = ClockOffsetEstimate(dateHeader: date, sentAt: sentAt, receivedAt: receivedAt),
            estimate.milliseconds.magnitude <= MirrorRule.largestClockOffset.wholeMilliseconds.magnitude
        else { return nil }
        return estimate.milliseconds
    }
}

/// The timer of a sleepTimer.upsert call, checked field by field, or the
/// canonical timer the platform named instead.
struct UpsertTimer {
    let id: TimerID
    let baby: BabyID
    /// The name as the desktop shows it (`BabyName(cleaning:)`); nil when
    /// nothing of it can be shown, which keeps the timer off the desktop but
    /// never off the platform.
    let shownName: BabyName?
    let activity: ActivityType
    let startedText: String
    let zone: String
    let details: JSONValue
    let note: JSONValue

    init(_ params: Parameters) throws(RPCError) {
        let timer = try params.object("timer")
        id = try timer.identifier(TimerID.self, "id")
        baby = try timer.identifier(BabyID.self, "babyId")
        shownName = BabyName(cleaning: try timer.string("babyName"))
        guard let activity = ActivityType(rawValue: try timer.string("activityType")) else {
            throw .invalidParams("timer.activityType", "activityType must be sleep, breastfeeding or pumping")
        }
        self.activity = activity
        startedText = try timer.string("startedAt")
        guard ISO8601.parse(startedText) != nil else {
            throw .invalidParams("timer.startedAt", "startedAt must be an ISO-8601 time such as 2026-11-29T21:41:00.000Z")
        }
        zone = try timer.string("timezone")
        guard TimeZoneName(zone) != nil else {
            throw .invalidParams("timer.timezone", "timezone must be an IANA time zone name such as Europe/Berlin")
        }
        details = try timer.optional("details", default: .object([])) { value throws(RPCError) in
            guard case .object = value else { throw RPCError.invalidParams("timer.details", "details must be an object") }
        }
        note = try timer.optional("note", default: .null) { value throws(RPCError) in
            switch value {
            case .string, .null: break
            default: throw RPCError.invalidParams("timer.note", "note must be a string or null")
            }
        }
    }

    /// The canonical timer of the page's timer's scope, as a 409 named it,
    /// with the page's name for the baby; nil when it is not of that scope
    /// or not well-formed.
    init?(canonical: JSONValue, insteadOf timer: UpsertTimer) {
        guard let id = canonical["id"]?.stringValue.flatMap(TimerID.init),
            canonical["babyId"]?.stringValue.flatMap(BabyID.init) == timer.baby,
            canonical["activityType"]?.stringValue == timer.activity.rawValue,
            let started = canonical["startedAt"]?.stringValue, ISO8601.parse(started) != nil,
            let zone = canonical["timezone"]?.stringValue, TimeZoneName(zone) != nil
        else { return nil }
        self.id = id
        baby = timer.baby
        shownName = timer.shownName
        activity = timer.activity
        startedText = started
        self.zone = zone
        switch canonical["details"] {
        case .object?: details = canonical["details"]!
        default: details = .object([])
        }
        switch canonical["note"] {
        case .string?: note = canonical["note"]!
        default: note = .null
        }
    }

    /// The body of PUT /active-timers/{id}. The name is not part of it: the
    /// platform knows its babies.
    func body(session: Session, requestToken: Bool) -> [UInt8] {
        var body: [(String, JSONValue)] = [
            ("familySubjectId", .string(session.familySubjectID.string)), ("babyId", .string(baby.string)),
            ("activityType", .string(activity.rawValue)), ("startedAt", .string(startedText)), ("timezone", .string(zone)),
            ("details", details), ("note", note),
        ]
        if requestToken { body.append(("requestNativeActionToken", .bool(true))) }
        return Array(JSONValue.object(body).serialized.utf8)
    }
}
