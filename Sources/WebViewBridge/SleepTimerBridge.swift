import DFLDBus
import EventLoop
import Glibc
import HTTPClient
import SleepTimerCore
import SleepTimersAPI

/// The WebView's native side of the Sleep timer: it upserts timers on the
/// platform with the family's bearer token, which never leaves this
/// process, and, for the family in self-mode only, asks for a native action
/// token and hands it to the agent with the timer's display data. While the
/// session lives it renews those tokens when the agent says they expire
/// soon, so that a night's sleep stays completable from the desktop.
///
/// Coach view-as never asks for a token: a desktop widget must not become a
/// reusable proxy for a coach's access to a family.
///
/// Its parts: the calls here, the session's changes decided by
/// `BridgeSessionMachine`; the upsert (`+Upsert`), whether it asks for a
/// token decided by `TokenRequestRule`; the agent's methods and signals
/// (`+Agent`); the renewal of tokens (`+Renewal`, deciding through
/// `TokenRenewalMachine`).
public final class SleepTimerBridge: RPCMethods {
    public static let protocolVersion = 1

    let connection: BusConnection?
    let http: HTTPClient
    let loop: MainLoop
    let clock: any WallClock
    let allowedOrigins: AllowedOrigins
    let log: any LogSink
    /// Who the WebView is, and what a change of that clears: decided by
    /// `BridgeSessionMachine`, carried out here.
    var sessions = BridgeSessionMachine()
    var session: Session? { sessions.session }
    /// The timers of this run whose token the bridge handed to the agent,
    /// as the WebView (or the platform, for a canonical timer) last gave
    /// them, in memory only: only their native completions are passed to
    /// the WebView, and only their tokens are renewed.
    var mirroredTimers: [TimerID: RenewableTimer] = [:]
    var renewals = TokenRenewalMachine()
    /// The loop's timeouts of planned renewals.
    var plannedRenewals: [TimerID: MainLoop.Source] = [:]
    /// Who owns the agent's name now: only its signals count.
    var agentOwner: NameOwnerWatch?
    /// The state directory of this installation's agent, where it
    /// publishes its bus name (`PublishedAgentName`); nil when the
    /// environment names none, and then no agent is trusted.
    let agentStateDirectory: String?
    /// The session bus's id, once the bus said it: a published name counts
    /// on this bus only.
    var busID: String?

    /// Sends a notification (a JSON text) to the WebView.
    public var notify: ((String) -> Void)?

    /// `connection` is nil when there is no session bus: then nothing is
    /// native, and everything else still works.
    public init(connection: BusConnection?, http: HTTPClient, loop: MainLoop, allowedOrigins: AllowedOrigins,
                agentStateDirectory: String?, log: any LogSink, clock: any WallClock = SystemClock()) {
        self.connection = connection
        self.agentStateDirectory = agentStateDirectory
        self.http = http
        self.loop = loop
        self.clock = clock
        self.allowedOrigins = allowedOrigins
        self.log = log
    }

    /// A timer whose token the bridge handed over: what renewing it needs
    /// besides the session's bearer token. Its scope, never the session
    /// itself, so that no bearer token outlives its session here.
    struct RenewableTimer {
        let timer: UpsertTimer
        let scope: TimerScope
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

    static func platformRefused(_ status: Int, code: String, more: [(String, JSONValue)] = []) -> RPCError {
        RPCError(code: -32001, message: "The platform refused the request.",
                 data: .object([("status", .number(String(status))), ("code", .string(code))] + more))
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
        guard let bearer = BridgeSessionMachine.bearer(try params.string("accessToken")) else {
            throw .invalidParams("accessToken", "accessToken must be a non-empty token without spaces or control characters")
        }
        let actor = try params.object("actor")
        let modeText = try actor.string("mode")
        guard let mode = Session.ActorMode(rawValue: modeText) else {
            throw .invalidParams("actor.mode", "actor.mode must be \"self\" or \"coach\"")
        }
        let family = try actor.identifier(FamilySubjectID.self, "familySubjectId")
        let new = Session(apiOrigin: origin, userID: user, accessToken: bearer, actorMode: mode, familySubjectID: family)
        guard let purging = apply(sessions.sessionSet(new)) else { return reply(.success(.object([]))) }
        purge(purging) { purged in reply(.success(.object(purged == nil ? [("agentUnavailable", .bool(true))] : []))) }
    }

    /// Sign-out: the session (and its bearer token) is forgotten whatever
    /// the agent says; an agent that could not purge is reported.
    private func clearSession(_ reply: @escaping (Result<JSONValue, RPCError>) -> Void) {
        guard let purging = apply(sessions.sessionCleared()) else { return reply(.success(.object([("purged", .number("0"))]))) }
        purge(purging) { count in
            var members: [(String, JSONValue)] = [("purged", .number(String(count ?? 0)))]
            if count == nil { members.append(("agentUnavailable", .bool(true))) }
            reply(.success(.object(members)))
        }
    }

    /// Carries out a change of session; returns the scope to purge, if any.
    private func apply(_ actions: [BridgeSessionMachine.SessionChangedAction]) -> BridgeSessionMachine.PurgeScope? {
        var purging: BridgeSessionMachine.PurgeScope?
        for action in actions {
            switch action {
            case .forgetAllTimers: forgetAllTimers()
            case .purge(let scope): purging = scope
            }
        }
        return purging
    }

    private func remove(_ params: Parameters, _ reply: @escaping (Result<JSONValue, RPCError>) -> Void) throws(RPCError) {
        guard session != nil else { throw Self.noSession() }
        let id = try params.identifier(TimerID.self, "timerId")
        forget(id)
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
        var ids: [TimerID] = []
        for (index, element) in list.enumerated() {
            guard let text = element.stringValue, let id = TimerID(text) else {
                throw .invalidParams("runningTimerIds[\(index)]", "every running timer id must be a UUID")
            }
            ids.append(id)
        }
        for id in sessions.reconciled(running: ids, mirrored: mirroredTimers.keys) { forget(id) }
        callAgent(SleepTimers1.Reconcile.self, [
            .string(session.apiOrigin.description), .string(session.userID.string),
            .string(session.familySubjectID.string), .strings(ids.map(\.string)),
        ]) { result in
            switch result {
            case .success(let values): reply(.success(.object([("removed", .number(String(values.first?.uint32Value ?? 0)))])))
            case .failure(let error): reply(.failure(Self.agentUnavailable(error)))
            }
        }
    }

    // MARK: The timers it handed over

    /// A token for the timer went to the agent.
    func remember(_ timer: UpsertTimer, session: Session, expiresAt: Instant) {
        mirroredTimers[timer.id] = RenewableTimer(timer: timer, scope: session.scope)
        renewals.issued(timer.id, at: clock.now(), expiresAt: expiresAt)
    }

    /// The timer left the desktop, or this session.
    func forget(_ id: TimerID) {
        mirroredTimers[id] = nil
        renewals.timerLeft(id)
        plannedRenewals.removeValue(forKey: id)?.cancel()
    }

    func forgetAllTimers() {
        for id in Array(mirroredTimers.keys) { forget(id) }
        renewals.sessionEnded()
    }
}

/// The bridge's parts run on its one loop's thread: the compiler keeps them there.
@available(*, unavailable)
extension SleepTimerBridge: Sendable {}
