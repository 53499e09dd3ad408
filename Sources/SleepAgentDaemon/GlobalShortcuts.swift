import AgentWorkflows
import DFLDBus
import SleepAgent
import SleepTimerCore
import SleepTimersAPI

/// Carries out the GlobalShortcutsMachine on the agent's connection: the
/// host registry's Register, the GlobalShortcuts portal's version,
/// CreateSession and BindShortcuts (each answered by its Request's
/// Response, subscribed to before the call), and the portal's Activated,
/// which does what CompleteRunning and OpenRunning do. It follows the
/// portal's owner on the bus and calls it only while it is there, never
/// asking the bus to start it.
final class GlobalShortcuts {
    private typealias Portal = ExternalInterface.Portal
    private typealias Machine = GlobalShortcutsMachine
    /// Every activation is one caller for the opens' limit and the log's.
    static let caller = "the desktop's global shortcut"

    private let agent: Agent
    private let connection: BusConnection
    private let sandboxed: Bool
    private let log: any LogSink
    private var machine = GlobalShortcutsMachine()
    /// The portal's owner: only its answers and signals are believed, and
    /// an answer that comes after it changed is dropped.
    private let portal: NameOwnerWatch
    private var portalOwner: String?
    /// The Responses awaited, by their handle token, each with its match
    /// rule and filter: a portal that leaves sends none of them.
    private var awaited: [String: (rule: String, filter: BusConnection.Filter)] = [:]

    init(agent: Agent, connection: BusConnection, sandboxed: Bool, log: any LogSink) {
        self.agent = agent
        self.connection = connection
        self.sandboxed = sandboxed
        self.log = log
        portal = NameOwnerWatch(name: Portal.name, connection: connection)
    }

    func start() {
        do {
            try connection.addMatch(
                "type='signal',sender='\(Portal.name)',interface='\(Portal.globalShortcutsInterface)',member='\(Portal.activated)'")
        } catch {
            log.log(.warning, "Cannot follow the global shortcuts' activations: \(error.message)")
        }
        connection.addSignalFilter { [weak self] message in
            guard let self, message.interface == Portal.globalShortcutsInterface, message.member == Portal.activated,
                self.portal.sent(message)
            else { return false }
            self.activated(message)
            return true
        }
        portal.onOwnerChanged = { [weak self] owner in self?.portalChanged(to: owner) }
        do {
            try portal.start()
        } catch {
            log.log(.warning, "Cannot follow the desktop's portal for the global shortcuts: \(error.message)")
        }
    }

    /// GetNameOwner's answer and each NameOwnerChanged; the same owner
    /// said twice (the answer after a change) is one.
    private func portalChanged(to owner: String?) {
        guard owner != portalOwner else { return }
        portalOwner = owner
        for token in Array(awaited.keys) { stopAwaiting(token) }
        if owner == nil {
            machine.portalLeft()
        } else {
            carryOut([machine.portalAppeared(sandboxed: sandboxed)])
        }
    }

    /// A call of the portal that never starts one, answered only while the
    /// portal that took it is still the one on the bus.
    private func callPortal(_ call: Message, answered: @escaping (Result<Message, BusError>) -> Void) {
        let owner = portalOwner
        connection.call(call.withoutAutoStart(), timeout: BusCall.timeout) { [weak self] result in
            guard let self, owner != nil, self.portalOwner == owner else { return }
            answered(result)
        }
    }

    private func carryOut(_ actions: [Machine.Action]) {
        for action in actions {
            switch action {
            case .registerAppID: register()
            case .askVersion: askVersion()
            case .createSession: createSession()
            case .bind(let session): bind(session)
            case .log(let priority, let message): log.log(priority, message)
            }
        }
    }

    private func register() {
        let call = Message.methodCall(
            destination: Portal.name, path: Portal.path, interface: Portal.hostRegistryInterface, member: Portal.register
        ).append(.string(AppIdentity.appID), .vardict([]))
        callPortal(call) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success: self.carryOut(self.machine.registered(nil))
            case .failure(let error): self.carryOut(self.machine.registered(Self.failure(error)))
            }
        }
    }

    private func askVersion() {
        let call = Message.methodCall(
            destination: Portal.name, path: Portal.path, interface: StandardInterface.Properties.name,
            member: StandardInterface.Properties.get
        ).append(.string(Portal.globalShortcutsInterface), .string(Portal.versionProperty))
        callPortal(call) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let reply):
                guard let version = (try? reply.arguments())?.first?.unwrapped.uint32Value else {
                    self.carryOut(self.machine.versionAnswered(.failure(.missing("its version could not be read"))))
                    return
                }
                self.log.log(.info, "The desktop's portal offers global shortcuts, version \(version).")
                self.carryOut(self.machine.versionAnswered(.success(version)))
            case .failure(let error):
                // No version, whatever the error: no interface to bind in.
                self.carryOut(self.machine.versionAnswered(.failure(.missing(error.message))))
            }
        }
    }

    private func createSession() {
        let token = Self.token()
        request(
            member: Portal.createSession,
            arguments: [.vardict([("handle_token", .string(token)), ("session_handle_token", .string(Self.token()))])],
            token: token
        ) { [weak self] answer in
            guard let self else { return }
            let session: Machine.RequestAnswer<String>
            switch answer {
            case .answered(let results):
                let handle = results["session_handle"]?.unwrapped
                switch handle {
                case .string(let path)?, .objectPath(let path)?: session = .answered(path)
                default: session = .callFailed(.failed("the answer held no session_handle"))
                }
            case .refused(let code, _): session = .refused(code: code)
            case .callFailed(let failure): session = .callFailed(failure)
            }
            self.carryOut(self.machine.sessionCreated(session))
        }
    }

    private func bind(_ session: String) {
        let token = Self.token()
        let shortcuts = Machine.Shortcut.allCases.map { shortcut in
            BusValue.structure([
                .string(shortcut.rawValue),
                .vardict([
                    ("description", .string(GlobalShortcutText.description(of: shortcut))),
                    ("preferred_trigger", .string(shortcut.preferredTrigger)),
                ]),
            ])
        }
        request(
            member: Portal.bindShortcuts,
            arguments: [.objectPath(session), .array(elementSignature: "(sa{sv})", shortcuts), .string(""),
                        .vardict([("handle_token", .string(token))])],
            token: token
        ) { [weak self] answer in
            guard let self else { return }
            let bound: Machine.RequestAnswer<[Machine.BoundShortcut]>
            switch answer {
            case .answered(let results):
                bound = .answered(Self.boundShortcuts(in: results) ?? [])
            case .refused(let code, let results):
                bound = .refused(code: code, results: results.flatMap(Self.boundShortcuts))
            case .callFailed(let failure): bound = .callFailed(failure)
            }
            self.carryOut(self.machine.bindAnswered(bound))
        }
    }

    /// The `shortcuts` of BindShortcuts' answer; nil when it has none.
    private static func boundShortcuts(in results: [String: BusValue]) -> [Machine.BoundShortcut]? {
        results["shortcuts"].map { ($0.unwrapped.arrayElements ?? []).compactMap(boundShortcut) }
    }

    /// One `(sa{sv})` of BindShortcuts' answer.
    private static func boundShortcut(_ value: BusValue) -> Machine.BoundShortcut? {
        guard case .structure(let fields) = value, fields.count == 2, let id = fields[0].stringValue else { return nil }
        let trigger = fields[1].vardictEntries?.first { $0.key == "trigger_description" }?.value.unwrapped.stringValue
        return Machine.BoundShortcut(id: id, trigger: trigger ?? "")
    }

    /// Calls a portal method that answers through a Request: the Response
    /// at the path the token fixes is followed before the call, and its
    /// match and filter go once it came (or the call failed).
    private func request(
        member: String, arguments: [BusValue], token: String,
        answered: @escaping (Machine.RequestAnswer<[String: BusValue]>) -> Void
    ) {
        let sender = String(connection.uniqueName.dropFirst().map { $0 == "." ? "_" : $0 })
        let path = Portal.requestPathPrefix + sender + "/" + token
        let rule = "type='signal',sender='\(Portal.name)',interface='\(Portal.requestInterface)',member='\(Portal.response)',path='\(path)'"
        try? connection.addMatch(rule)
        func finish(_ answer: Machine.RequestAnswer<[String: BusValue]>) {
            guard stopAwaiting(token) else { return }
            answered(answer)
        }
        let filter = connection.addSignalFilter { [weak self] message in
            guard message.interface == Portal.requestInterface, message.member == Portal.response, message.path == path,
                self?.portal.sent(message) == true,
                let values = try? message.arguments(), values.count == 2, let code = values[0].uint32Value
            else { return false }
            let entries = values[1].vardictEntries ?? []
            let results = Dictionary(entries.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
            finish(code == 0 ? .answered(results) : .refused(code: code, results: results))
            return true
        }
        awaited[token] = (rule, filter)
        let call = Message.methodCall(
            destination: Portal.name, path: Portal.path, interface: Portal.globalShortcutsInterface, member: member
        ).append(contentsOf: arguments)
        callPortal(call) { result in
            if case .failure(let error) = result { finish(.callFailed(Self.failure(error))) }
        }
    }

    /// Stops following the Response of `token`; false when it was not
    /// followed (any more).
    @discardableResult
    private func stopAwaiting(_ token: String) -> Bool {
        guard let (rule, filter) = awaited.removeValue(forKey: token) else { return false }
        connection.removeSignalFilter(filter)
        connection.removeMatch(rule)
        return true
    }

    private func activated(_ message: Message) {
        guard let values = try? message.arguments(), values.count == 4, case .objectPath(let session) = values[0],
            let id = values[1].stringValue
        else { return }
        guard let action = machine.activated(session: session, shortcutID: id) else { return }
        let token = values[3].vardictEntries?.first { $0.key == "activation_token" }?.value.unwrapped.stringValue
        log.log(.info, "The global shortcut \(id) was pressed.")
        switch action {
        case .completeRunning:
            do {
                if try agent.completeRunning() == .openAppHome {
                    agent.openApp(activationToken: token, caller: Self.caller)
                }
            } catch {
                log.log(.warning, "The global shortcut \(id) could not complete the running Sleep: \(error.message)")
            }
        case .openRunning:
            agent.openRunning(caller: Self.caller, activationToken: token)
        }
    }

    /// A missing portal, interface or method, or another failure.
    private static func failure(_ error: BusError) -> Machine.CallFailure {
        let missing = [
            BusError.Names.unknownMethod, BusError.Names.unknownInterface, BusError.Names.unknownObject,
            BusError.Names.serviceUnknown, BusError.Names.nameHasNoOwner,
        ]
        return missing.contains(error.name) ? .missing(error.message) : .failed(error.description)
    }

    /// A handle token: letters, digits and underscores, as the portal wants.
    private static func token() -> String { "dfl_shortcuts_\(UInt32.random(in: 1...UInt32.max))" }
}

@available(*, unavailable, message: "The shortcuts' shell is confined to the agent's loop, as its bus connection is.")
extension GlobalShortcuts: Sendable {}
