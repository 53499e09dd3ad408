import GLibParsing
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
    /// token, which goes on to the agent in a pipe. `UpsertMachine` decides
    /// each step and the answer, this carries them out.
    func upsert(_ params: Parameters, _ reply: @escaping (Result<JSONValue, RPCError>) -> Void) throws(RPCError) {
        guard let session else { throw Self.noSession() }
        let timer = try UpsertTimer(params)
        let run = UpsertRun(
            UpsertMachine(actorMode: session.actorMode, activity: timer.activity, nameDisplayable: timer.shownName != nil),
            timer: timer, session: session
        ) { answer, run in reply(Self.result(answer, run)) }
        agentVersion(if: run.machine.asksAgent) { [weak self] agentVersion in
            guard let self, let action = run.machine.agentAnswered(agentVersion != nil) else { return }
            switch action {
            case .putTimer(let requestToken): self.put(timer, requestToken: requestToken, run)
            }
        }
    }

    /// One upsert (or renewal) in flight: its machine, and what the shell
    /// keeps for the answer.
    final class UpsertRun {
        var machine: UpsertMachine
        /// The page's timer (or the renewed one).
        let timer: UpsertTimer
        let session: Session
        /// The canonical timer the platform's 409 named, as it named it,
        /// and as the desktop would upsert it (nil when it cannot).
        var canonical: JSONValue?
        var adopted: UpsertTimer?
        /// The timer as the platform last stored it.
        var stored: PlatformTimer?
        /// Held from the platform's answer to the hand-over only.
        var mirrorData: MirrorData?
        /// False once the answer is no longer wanted (a renewal's timer
        /// was forgotten meanwhile): the run stops where it is.
        let wanted: () -> Bool
        let finish: (UpsertMachine.Reply, UpsertRun) -> Void

        init(_ machine: UpsertMachine, timer: UpsertTimer, session: Session, wanted: @escaping () -> Bool = { true },
             finish: @escaping (UpsertMachine.Reply, UpsertRun) -> Void) {
            self.machine = machine
            self.timer = timer
            self.session = session
            self.wanted = wanted
            self.finish = finish
        }
    }

    /// PUTs `timer` and hands the platform's answer to the run's machine.
    func put(_ timer: UpsertTimer, requestToken: Bool, _ run: UpsertRun) {
        putTimer(timer, session: run.session, requestToken: requestToken) { [weak self] answer in
            guard let self, run.wanted() else { return }
            let platform: UpsertMachine.PlatformAnswer
            switch answer {
            case .unreachable:
                platform = .unreachable
            case .refused(let status, let code, let document):
                let named = document?["timer"]
                // The first 409's canonical timer is the one answered with.
                if run.canonical == nil, let named {
                    run.canonical = named
                    run.adopted = UpsertTimer(canonical: named, insteadOf: run.timer)
                }
                platform = .refused(
                    status: status, code: code, named: named == nil ? nil : run.adopted == nil ? .notShowable : .showable)
            case .stored(let stored):
                run.stored = stored
                run.mirrorData = MirrorData(issuedFor: timer, session: run.session, platform: stored)
                platform = .stored(
                    tokenIssued: run.mirrorData != nil,
                    sessionLive: TokenRequestRule.stillAsks(for: run.session.scope, session: self.session) == .ask)
            }
            switch run.machine.platformAnswered(platform) {
            case nil: return
            case .reply(let reply)?: run.finish(reply, run)
            case .putCanonical?:
                guard let adopted = run.adopted else { return }
                self.put(adopted, requestToken: true, run)
            case .mirror?: self.handOver(timer, run)
            }
        }
    }

    /// Gives the agent the timer with its token, and tells the machine
    /// whether it took it.
    private func handOver(_ timer: UpsertTimer, _ run: UpsertRun) {
        guard let data = run.mirrorData else { return }
        run.mirrorData = nil
        // Remembered before the call: the agent may say the token expires
        // soon before it answers.
        remember(timer, session: run.session, expiresAt: data.expiresAt)
        mirror(data) { [weak self] refusal in
            for action in run.machine.mirrorAnswered(refusal: refusal) {
                switch action {
                case .forgetTimer: self?.forget(timer.id)
                case .reply(let reply): run.finish(reply, run)
                }
            }
        }
    }

    /// The JSON-RPC answer to a sleepTimer.upsert.
    static func result(_ reply: UpsertMachine.Reply, _ run: UpsertRun) -> Result<JSONValue, RPCError> {
        switch reply {
        case .saved(let native):
            return .success(.object([("timer", run.stored?.timer ?? .null), ("native", Self.native(native))]))
        case .conflict(let native, let shows):
            let canonical = shows == .stored ? run.stored?.timer : run.canonical
            return .failure(Self.platformRefused(
                409, code: "scope_conflict", more: [("canonicalTimer", canonical ?? .null), ("native", Self.native(native))]))
        case .refused(let status, let code):
            return .failure(Self.platformRefused(status, code: code))
        case .unreachable:
            return .failure(Self.platformUnreachable())
        }
    }

    /// The `native` member of an answer.
    static func native(_ native: UpsertMachine.Native) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("mirrored", .bool(native.outcome == .mirrored)), ("reason", .string(native.outcome.rawValue)),
        ]
        if let detail = native.detail { members.append(("detail", .string(Self.text(detail)))) }
        return .object(members)
    }

    private static func text(_ detail: UpsertMachine.Detail) -> String {
        switch detail {
        case .canonicalNotShowable: "the platform's canonical timer is not one the desktop can show"
        case .canonicalRefused(let status, let code): "the platform refused the canonical timer's upsert (\(status) \(code))"
        case .canonicalUnreachable: "the platform could not be reached for the canonical timer"
        case .agentRefused(let refusal): refusal
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
            MirrorRule.takesClockOffset(.milliseconds(estimate.milliseconds))
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
        guard GLibISO8601.parse(startedText) != nil else {
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
            let started = canonical["startedAt"]?.stringValue, GLibISO8601.parse(started) != nil,
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
