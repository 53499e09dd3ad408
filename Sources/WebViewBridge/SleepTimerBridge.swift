import DFLDBus
import EventLoop
import Glibc
import HTTPClient
import SleepTimerCore
import SleepTimersAPI

/// The WebView's native side of the Sleep timer: it upserts timers on the
/// platform with the family's bearer token, which never leaves this
/// process, and, for the family in self-mode only, asks for a native action
/// token and hands it to the agent with the timer's display data.
///
/// Coach view-as never asks for a token: a desktop widget must not become a
/// reusable proxy for a coach's access to a family.
public final class SleepTimerBridge: RPCMethods {
    public static let protocolVersion = 1

    private let connection: BusConnection?
    private let http: HTTPClient
    private let allowedOrigins: AllowedOrigins
    private let log: any LogSink
    private var session: Session?
    /// The timers of this session the agent holds: only their native
    /// completions are passed to the WebView.
    private var mirroredTimers: Set<String> = []

    /// Sends a notification (a JSON text) to the WebView.
    public var notify: ((String) -> Void)?

    /// `connection` is nil when there is no session bus: then nothing is
    /// native, and everything else still works.
    public init(connection: BusConnection?, http: HTTPClient, allowedOrigins: AllowedOrigins, log: any LogSink) {
        self.connection = connection
        self.http = http
        self.allowedOrigins = allowedOrigins
        self.log = log
    }

    /// Passes the agent's CompletionFinished(created) on to the WebView, so
    /// that the app refreshes Home and history at once.
    public func start() {
        guard let connection else { return }
        let finished = SleepTimers1.CompletionFinished.name
        try? connection.addMatch(
            "type='signal',sender='\(SleepTimers1.busName)',path='\(SleepTimers1.objectPath)',interface='\(SleepTimers1.interface)',member='\(finished)'")
        connection.addFilter { [weak self] message in
            guard let self, message.kind == .signal, message.interface == SleepTimers1.interface,
                message.member == finished, let arguments = try? message.arguments(), arguments.count == 3,
                let timerID = arguments[0].stringValue, arguments[1].stringValue == "created",
                let activityID = arguments[2].stringValue, self.mirroredTimers.remove(timerID) != nil
            else { return false }
            self.notify?(JSONRPCServer.notification(
                "sleepTimer.completedNatively",
                .object([("timerId", .string(timerID)), ("activityId", .string(activityID))])))
            return false
        }
    }

    // MARK: Dispatch

    public func call(_ method: String, params: JSONValue?, reply: @escaping (Result<JSONValue, RPCError>) -> Void) {
        do {
            switch method {
            case "bridge.getCapabilities":
                getCapabilities(reply)
            case "session.set":
                try setSession(Parameters(params), reply)
            case "session.clear":
                clearSession(reply)
            case "sleepTimer.upsert":
                try upsert(Parameters(params), reply)
            case "sleepTimer.remove":
                try remove(Parameters(params), reply)
            case "sleepTimers.reconcile":
                try reconcile(Parameters(params), reply)
            default:
                reply(.failure(.methodNotFound))
            }
        } catch {
            reply(.failure(error))
        }
    }

    // MARK: Errors of our own (-32000 to -32099), data {status, code}

    static func noSession() -> RPCError {
        RPCError(code: -32010, message: "No session: call session.set first.",
                 data: .object([("status", .number("0")), ("code", .string("no_session"))]))
    }

    static func platformRefused(_ status: Int, code: String) -> RPCError {
        RPCError(code: -32001, message: "The platform refused the request.",
                 data: .object([("status", .number(String(status))), ("code", .string(code))]))
    }

    static func agentUnavailable(_ error: BusError) -> RPCError {
        RPCError(code: -32003, message: "The desktop agent could not do it: \(error.message)",
                 data: .object([("status", .number("0")), ("code", .string("agent_unavailable"))]))
    }

    static func platformUnreachable() -> RPCError {
        RPCError(code: -32002, message: "The platform could not be reached.",
                 data: .object([("status", .number("0")), ("code", .string("unreachable"))]))
    }

    // MARK: Methods

    private func getCapabilities(_ reply: @escaping (Result<JSONValue, RPCError>) -> Void) {
        agentVersion { version in
            var members: [(String, JSONValue)] = [
                ("protocolVersion", .number(String(Self.protocolVersion))), ("nativeSleepTimer", .bool(version != nil)),
            ]
            if let version { members.append(("agentVersion", .string(version))) }
            reply(.success(.object(members)))
        }
    }

    private func setSession(_ params: Parameters, _ reply: @escaping (Result<JSONValue, RPCError>) -> Void) throws(RPCError) {
        let originText = try params.string("apiOrigin")
        let origin: APIOrigin
        do {
            origin = try APIOrigin(parsing: originText)
        } catch {
            throw .invalidParams("apiOrigin", "apiOrigin \(error.explanation)")
        }
        guard allowedOrigins.contains(origin) else {
            throw .invalidParams("apiOrigin", "apiOrigin is not one of the allowed API origins in the configuration")
        }
        let user = try params.identifier(UserID.self, "userId")
        let token = try params.string("accessToken")
        guard !token.isEmpty, token.utf8.count <= BearerToken.maximumLength,
            !token.utf8.contains(where: { $0 < 0x21 || $0 == 0x7F })
        else {
            throw .invalidParams("accessToken", "accessToken must be a non-empty token without spaces or control characters")
        }
        let actor = try params.object("actor")
        let modeText = try actor.string("mode")
        guard let mode = Session.ActorMode(rawValue: modeText) else {
            throw .invalidParams("actor.mode", "actor.mode must be \"self\" or \"coach\"")
        }
        let family = try actor.identifier(FamilySubjectID.self, "familySubjectId")
        let new = Session(apiOrigin: origin, userID: user, accessToken: BearerToken(token), actorMode: mode, familySubjectID: family)
        let previous = session
        session = new
        if let previous, previous.apiOrigin != origin || previous.userID != user {
            // Another user or platform: the previous one's timers and
            // tokens go from the desktop.
            mirroredTimers = []
            purge(previous) { purged in reply(.success(.object(purged == nil ? [("agentUnavailable", .bool(true))] : []))) }
        } else {
            reply(.success(.object([])))
        }
    }

    /// Sign-out: the session (and its bearer token) is forgotten whatever
    /// the agent says; an agent that could not purge is reported.
    private func clearSession(_ reply: @escaping (Result<JSONValue, RPCError>) -> Void) {
        guard let current = session else {
            reply(.success(.object([("purged", .number("0"))])))
            return
        }
        session = nil
        mirroredTimers = []
        purge(current) { count in
            var members: [(String, JSONValue)] = [("purged", .number(String(count ?? 0)))]
            if count == nil { members.append(("agentUnavailable", .bool(true))) }
            reply(.success(.object(members)))
        }
    }

    /// sleepTimer.upsert: the timer goes to the platform with the family's
    /// bearer token; for the family in self-mode, a Sleep timer, and an agent
    /// that answers, the platform is asked for a native action token, which
    /// goes on to the agent in a pipe. The answer says whether the timer is
    /// mirrored on the desktop and, if not, why.
    private func upsert(_ params: Parameters, _ reply: @escaping (Result<JSONValue, RPCError>) -> Void) throws(RPCError) {
        guard let session else { throw Self.noSession() }
        let timer = try UpsertTimer(params)
        let wanted = session.actorMode != .coach && timer.activity == "sleep"
        agentVersion(if: wanted) { [weak self] agentVersion in
            guard let self else { return }
            let requestToken = wanted && agentVersion != nil
            let reason = Self.reasonWithoutToken(session: session, timer: timer, agentAnswers: agentVersion != nil)
            self.putTimer(timer, session: session, requestToken: requestToken) { [weak self] result in
                guard let self else { return }
                switch result {
                case .failure(let error):
                    reply(.failure(error))
                case .success(let platform):
                    let issued = requestToken ? MirrorData(issuedFor: timer, session: session, platform: platform) : nil
                    self.handOver(issued, platformTimer: platform.timer, reason: reason, reply: reply)
                }
            }
        }
    }

    /// The timer of a sleepTimer.upsert call, checked field by field.
    private struct UpsertTimer {
        let id: TimerID
        let baby: BabyID
        let babyName: BabyName
        let activity: String
        let startedText: String
        let zone: String
        let details: JSONValue
        let note: JSONValue

        init(_ params: Parameters) throws(RPCError) {
            let timer = try params.object("timer")
            id = try timer.identifier(TimerID.self, "id")
            baby = try timer.identifier(BabyID.self, "babyId")
            let nameText = try timer.string("babyName")
            do {
                babyName = try BabyName(validating: nameText)
            } catch {
                throw .invalidParams("timer.babyName", "babyName \(error.explanation)")
            }
            activity = try timer.string("activityType")
            guard ["sleep", "breastfeeding", "pumping"].contains(activity) else {
                throw .invalidParams("timer.activityType", "activityType must be sleep, breastfeeding or pumping")
            }
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

        /// The body of PUT /active-timers/{id}.
        func body(session: Session, requestToken: Bool) -> [UInt8] {
            var body: [(String, JSONValue)] = [
                ("familySubjectId", .string(session.familySubjectID.string)), ("babyId", .string(baby.string)),
                ("activityType", .string(activity)), ("startedAt", .string(startedText)), ("timezone", .string(zone)),
                ("details", details), ("note", note),
            ]
            if requestToken { body.append(("requestNativeActionToken", .bool(true))) }
            return Array(JSONValue.object(body).serialized.utf8)
        }
    }

    /// Why the timer is not mirrored when no token comes back.
    private static func reasonWithoutToken(session: Session, timer: UpsertTimer, agentAnswers: Bool) -> String {
        switch (session.actorMode, timer.activity == "sleep", agentAnswers) {
        case (.coach, _, _): "coach-view-as"
        case (_, false, _): "not-sleep"
        case (_, true, false): "agent-unavailable"
        default: "token-not-issued"
        }
    }

    /// The timer as the platform stored it, and the whole reply (which holds
    /// the native action token when one was issued).
    private typealias PlatformTimer = (timer: JSONValue, document: JSONValue)

    private func putTimer(_ timer: UpsertTimer, session: Session, requestToken: Bool,
                          done: @escaping (Result<PlatformTimer, RPCError>) -> Void) {
        http.send(
            "PUT", origin: session.apiOrigin, path: "/active-timers/\(timer.id.string)",
            body: timer.body(session: session, requestToken: requestToken),
            headers: [("Authorization", session.accessToken.authorization)]
        ) { [weak self] result in
            guard let self else { return }
            switch result {
            case .failure(let error):
                self.log.log(.warning, "The platform could not be reached for timer \(timer.id): \(error.description)")
                done(.failure(Self.platformUnreachable()))
            case .success(let response):
                done(Self.platformTimer(in: response))
            }
        }
    }

    private static func platformTimer(in response: HTTPResponse) -> Result<PlatformTimer, RPCError> {
        let document = try? JSONParser.parse(response.body, maximumDepth: JSONRPCServer.maximumDepth)
        guard (200..<300).contains(response.status), let document, let timer = document["timer"] else {
            let code = document?["error"]?["code"]?.stringValue ?? "unexpected_reply"
            return .failure(platformRefused(response.status, code: code))
        }
        return .success((timer, document))
    }

    /// Gives the agent the timer with its token, when one was issued, and
    /// answers the WebView with the platform's timer and what became of it
    /// on the desktop.
    private func handOver(_ issued: MirrorData?, platformTimer: JSONValue, reason: String,
                          reply: @escaping (Result<JSONValue, RPCError>) -> Void) {
        let answer: (Bool, String, String?) -> Void = { mirrored, reason, detail in
            var native: [(String, JSONValue)] = [("mirrored", .bool(mirrored)), ("reason", .string(reason))]
            if let detail { native.append(("detail", .string(detail))) }
            reply(.success(.object([("timer", platformTimer), ("native", .object(native))])))
        }
        guard let issued else { return answer(false, reason, nil) }
        mirror(issued) { refusal in
            if let refusal {
                answer(false, "agent-unavailable", refusal)
            } else {
                self.mirroredTimers.insert(issued.timerID.string)
                answer(true, "mirrored", nil)
            }
        }
    }

    private func remove(_ params: Parameters, _ reply: @escaping (Result<JSONValue, RPCError>) -> Void) throws(RPCError) {
        guard session != nil else { throw Self.noSession() }
        let id = try params.identifier(TimerID.self, "timerId")
        mirroredTimers.remove(id.string)
        callAgent(SleepTimers1.Remove.self, [.string(id.string)]) { result in
            switch result {
            case .success(let values): reply(.success(.object([("removed", .bool(values.first?.booleanValue ?? false))])))
            case .failure(let error): reply(.failure(Self.agentUnavailable(error)))
            }
        }
    }

    private func reconcile(_ params: Parameters, _ reply: @escaping (Result<JSONValue, RPCError>) -> Void) throws(RPCError) {
        guard let session else { throw Self.noSession() }
        let list = try params.array("runningTimerIds", maximum: 1000)
        var ids: [String] = []
        for (index, element) in list.enumerated() {
            guard let text = element.stringValue, let id = TimerID(text) else {
                throw .invalidParams("runningTimerIds[\(index)]", "every running timer id must be a UUID")
            }
            ids.append(id.string)
        }
        mirroredTimers.formIntersection(ids)
        callAgent(SleepTimers1.Reconcile.self, [
            .string(session.apiOrigin.description), .string(session.userID.string),
            .string(session.familySubjectID.string), .strings(ids),
        ]) { result in
            switch result {
            case .success(let values): reply(.success(.object([("removed", .number(String(values.first?.uint32Value ?? 0)))])))
            case .failure(let error): reply(.failure(Self.agentUnavailable(error)))
            }
        }
    }

    // MARK: The agent

    /// What the agent's Mirror needs: the timer's display data as the
    /// platform stored it, and the token it issued.
    private struct MirrorData {
        let timerID: TimerID
        let session: Session
        let babyID: BabyID
        let babyName: BabyName
        let startedAt: Instant
        let timeZone: String
        let revision: Int64
        let token: ActionToken
        let expiresAt: Instant

        /// Nil when the platform's reply holds no usable token.
        init?(issuedFor timer: UpsertTimer, session: Session, platform: PlatformTimer) {
            guard let issued = platform.document["nativeActionToken"], let tokenText = issued["token"]?.stringValue,
                let expires = issued["expiresAt"]?.stringValue.flatMap(ISO8601.parse)
            else { return nil }
            timerID = timer.id
            self.session = session
            babyID = timer.baby
            babyName = timer.babyName
            startedAt = platform.timer["startedAt"]?.stringValue.flatMap(ISO8601.parse) ?? ISO8601.parse(timer.startedText)!
            timeZone = platform.timer["timezone"]?.stringValue ?? timer.zone
            revision = platform.timer["revision"]?.int64Value ?? 0
            token = ActionToken(unvalidated: tokenText)
            expiresAt = expires
        }
    }

    /// Hands the timer to the agent with the token in a pipe: the token
    /// never travels in a D-Bus message, so nothing watching the bus sees
    /// it. `done` gets nil, or the agent's reason for refusing.
    private func mirror(_ data: MirrorData, done: @escaping (String?) -> Void) {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { return done("a pipe for the token could not be made") }
        let written = data.token.withRevealedValue { value in
            Array(value.utf8).withUnsafeBytes { write(descriptors[1], $0.baseAddress, $0.count) == $0.count }
        }
        close(descriptors[1])
        let reader = UnixFileDescriptor(taking: descriptors[0])
        guard written else { return done("the token could not be handed over") }
        typealias Key = SleepTimers1.MirrorKey
        let entries: [(Key, BusValue)] = [
            (.timerID, .string(data.timerID.string)), (.apiOrigin, .string(data.session.apiOrigin.description)),
            (.userID, .string(data.session.userID.string)), (.familySubjectID, .string(data.session.familySubjectID.string)),
            (.babyID, .string(data.babyID.string)), (.babyName, .string(data.babyName.text)),
            (.activityType, .string("sleep")), (.actorMode, .string(data.session.actorMode.rawValue)),
            (.startedAt, .int64(data.startedAt.millisecondsSince1970)), (.timeZone, .string(data.timeZone)),
            (.actionTokenFD, .unixFD(reader)), (.tokenExpiresAt, .int64(data.expiresAt.millisecondsSince1970)),
            (.revision, .int64(data.revision)),
        ]
        callAgent(SleepTimers1.Mirror.self, [.vardict(entries.map { ($0.0.name, $0.1) })]) { result in
            switch result {
            case .success: done(nil)
            case .failure(let error): done(error.message)
            }
        }
    }

    /// How many timers the agent purged, or nil when it could not be asked.
    private func purge(_ session: Session, done: @escaping (UInt32?) -> Void) {
        callAgent(SleepTimers1.Purge.self, [.string(session.apiOrigin.description), .string(session.userID.string), .string("")]) { result in
            switch result {
            case .success(let values): done(values.first?.uint32Value ?? 0)
            case .failure: done(nil)
            }
        }
    }

    /// The agent's version when `wanted` and the agent answers, else nil
    /// (without asking).
    private func agentVersion(if wanted: Bool, _ done: @escaping (String?) -> Void) {
        guard wanted else { return done(nil) }
        agentVersion(done)
    }

    /// The agent's version when it answers on the session bus, else nil.
    private func agentVersion(_ done: @escaping (String?) -> Void) {
        guard let connection else { return done(nil) }
        let call = Message.methodCall(
            destination: SleepTimers1.busName, path: SleepTimers1.objectPath,
            interface: StandardInterface.Properties.name, member: StandardInterface.Properties.get
        ).append(.string(SleepTimers1.interface), .string(SleepTimers1.Property.version.name))
        connection.call(call, timeoutMilliseconds: 5000) { result in
            done((try? result.get().arguments())?.first?.unwrapped.stringValue)
        }
    }

    private func callAgent(_ method: any BusMethod.Type, _ arguments: [BusValue],
                           done: @escaping (Result<[BusValue], BusError>) -> Void) {
        assert(arguments.map(\.signature).joined() == method.inSignature)
        guard let connection else {
            return done(.failure(BusError(name: BusError.Names.serviceUnknown, message: "There is no session bus.")))
        }
        let call = Message.methodCall(destination: SleepTimers1.busName, path: SleepTimers1.objectPath,
                                      interface: SleepTimers1.interface, member: method.name)
            .append(contentsOf: arguments)
        connection.call(call, timeoutMilliseconds: 10_000) { result in
            switch result {
            case .success(let reply):
                done(Result { () throws(BusError) -> [BusValue] in try reply.arguments() })
            case .failure(let error):
                done(.failure(error))
            }
        }
    }
}

/// The params of a call, read with errors that name the parameter.
struct Parameters {
    let value: JSONValue?
    let path: String

    init(_ value: JSONValue?, path: String = "") {
        self.value = value
        self.path = path
    }

    private func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    private func member(_ key: String) throws(RPCError) -> JSONValue {
        guard case .object = value else { throw .invalidParams(path.isEmpty ? "params" : path, "must be an object") }
        guard let member = value?[key] else { throw .invalidParams(name(key), "\(name(key)) is required") }
        return member
    }

    func string(_ key: String) throws(RPCError) -> String {
        guard case .string(let text) = try member(key) else { throw .invalidParams(name(key), "\(name(key)) must be a string") }
        return text
    }

    func object(_ key: String) throws(RPCError) -> Parameters {
        let value = try member(key)
        guard case .object = value else { throw .invalidParams(name(key), "\(name(key)) must be an object") }
        return Parameters(value, path: name(key))
    }

    func array(_ key: String, maximum: Int) throws(RPCError) -> [JSONValue] {
        guard case .array(let elements) = try member(key) else { throw .invalidParams(name(key), "\(name(key)) must be an array") }
        guard elements.count <= maximum else { throw .invalidParams(name(key), "\(name(key)) may hold at most \(maximum) entries") }
        return elements
    }

    func identifier<Kind>(_ type: Identifier<Kind>.Type, _ key: String) throws(RPCError) -> Identifier<Kind> {
        guard let id = Identifier<Kind>(try string(key)) else { throw .invalidParams(name(key), "\(name(key)) must be a UUID") }
        return id
    }

    /// An optional member, checked by `check` when present.
    func optional(_ key: String, default fallback: JSONValue, check: (JSONValue) throws(RPCError) -> Void) throws(RPCError) -> JSONValue {
        guard case .object = value, let member = value?[key] else { return fallback }
        try check(member)
        return member
    }
}

/// The bridge's parts run on its one loop's thread: the compiler keeps them there.
@available(*, unavailable)
extension SleepTimerBridge: Sendable {}
