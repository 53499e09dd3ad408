import AgentWorkflows
import DFLDBus
import SleepAgent
import SleepTimerCore
import SleepTimersAPI

/// The desktops' searches, answered on the agent's connection under its
/// own name: GNOME Shell's search provider at
/// /com/dreamsforlittles/DreamsForLittles/SearchProvider and KRunner's
/// runner at /com/dreamsforlittles/DreamsForLittles/KRunner. What they find
/// the agent's SleepSearchRule decides; choosing a result opens the app as
/// the bus's Open does (within the caller's opens), and KRunner's Complete
/// completes as the bus's Complete does (the outbox, exactly once). The
/// replies carry display text and timer ids, never a token.
public final class SearchService {
    typealias Gnome = SearchInterface.GnomeShell
    typealias Runner = SearchInterface.KRunner

    let connection: BusConnection
    let agent: Agent
    /// Each call's caller as a person counts callers: the opens' limits
    /// hold per caller, as for the bus's Open.
    let callers: ServiceCallers

    private lazy var gnome: BusObject = BusObject(
        connection: connection, path: SearchObjects.gnomeShellPath, interface: Gnome.interface,
        introspectionFile: PackageResources.org_gnome_Shell_SearchProvider2_xml, methods: Gnome.methods,
        properties: { [] }, call: { [unowned self] message, member, arguments in call(message, member, arguments) })
    private lazy var runner: BusObject = BusObject(
        connection: connection, path: SearchObjects.kRunnerPath, interface: Runner.interface,
        introspectionFile: PackageResources.org_kde_krunner1_xml, methods: Runner.methods,
        properties: { [] }, call: { [unowned self] message, member, arguments in call(message, member, arguments) })

    /// `callers` nil: each connection is its own caller (a bus of one
    /// client, in tests).
    public init(connection: BusConnection, agent: Agent, log: any LogSink, callers: CallerProcesses? = nil) {
        self.connection = connection
        self.agent = agent
        self.callers = ServiceCallers(agent: agent, log: log, callers: callers)
    }

    public func register() {
        gnome.register()
        runner.register()
    }

    // MARK: Calls

    /// Every argument has been checked against the method's signature.
    private func call(_ message: Message, _ member: String, _ arguments: [BusValue]) {
        let object = message.path == SearchObjects.kRunnerPath ? runner : gnome
        do {
            switch member {
            case Gnome.getInitialResultSet:
                object.reply(to: message, Self.ids(agent.searchResults(for: Self.strings(arguments[0]))))
            case Gnome.getSubsearchResultSet:
                let results = agent.searchResults(for: Self.strings(arguments[1]), within: Self.strings(arguments[0]))
                object.reply(to: message, Self.ids(results))
            case Gnome.getResultMetas:
                let metas = agent.searchResults(ids: Self.strings(arguments[0])).map(Self.meta)
                object.reply(to: message, .array(elementSignature: "a{sv}", metas))
            case Gnome.activateResult:
                try open(arguments[0].stringValue!, message, object)
            case Gnome.launchSearch:
                object.reply(to: message)
                callers.identify(message) { [agent] caller in agent.openApp(activationToken: nil, caller: caller) }
            case Runner.actions:
                object.reply(to: message, .array(elementSignature: "(sss)", [Self.completeAction]))
            case Runner.match:
                let matches = agent.searchResults(for: [arguments[0].stringValue!]).map(Self.match)
                object.reply(to: message, .array(elementSignature: "(sssida{sv})", matches))
            case Runner.run:
                try run(arguments[0].stringValue!, action: arguments[1].stringValue!, message, object)
            case Runner.teardown:
                object.reply(to: message)
            default:
                break // the method tables hold the interfaces' methods only
            }
        } catch {
            callers.refuse(message, member, error, on: object)
        }
    }

    /// A chosen result: the app at the Sleep, as the bus's Open.
    private func open(_ idText: String, _ message: Message, _ object: BusObject) throws(ServiceError) {
        let id = try agent.openable(idText)
        object.reply(to: message)
        callers.identify(message) { [agent] caller in agent.open(id, activationToken: nil, caller: caller) }
    }

    /// KRunner's Run: the default action (empty) opens, `complete`
    /// completes now, exactly once, as the bus's Complete.
    private func run(_ idText: String, action: String, _ message: Message, _ object: BusObject) throws(ServiceError) {
        switch SearchObjects.KRunnerAction(rawValue: action) {
        case nil where action.isEmpty:
            try open(idText, message, object)
        case .complete?:
            try agent.complete(try agent.openable(idText), completedAt: nil)
            object.reply(to: message)
        case nil:
            throw ServiceError(.invalidArgument, "actionId must be empty (open) or \(SearchObjects.KRunnerAction.complete.rawValue).")
        }
    }

    // MARK: Replies

    private static func strings(_ value: BusValue) -> [String] {
        value.arrayElements?.compactMap(\.stringValue) ?? []
    }

    private static func ids(_ results: [SleepSearchRule.Result]) -> BusValue {
        .strings(results.map(\.id.string))
    }

    /// GNOME Shell's meta of a result: its id, "Maya asleep", the elapsed
    /// time, the app's icon.
    static func meta(_ result: SleepSearchRule.Result) -> BusValue {
        .vardict([
            (Gnome.MetaKey.id, .string(result.id.string)), (Gnome.MetaKey.name, .string(result.name)),
            (Gnome.MetaKey.description, .string(result.description)), (Gnome.MetaKey.gicon, .string(SearchObjects.icon)),
        ])
    }

    /// KRunner's match: (id, text, icon, category relevance, relevance,
    /// properties). A whole name ranks highest; Complete is offered only
    /// where the desktop can complete.
    static func match(_ result: SleepSearchRule.Result) -> BusValue {
        let actions = result.canComplete ? [SearchObjects.KRunnerAction.complete.rawValue] : []
        return .structure([
            .string(result.id.string), .string(result.name), .string(SearchObjects.icon),
            .int32(result.exact ? Runner.highest : Runner.high), .double(result.exact ? 1 : 0.7),
            .vardict([(Runner.PropertyKey.subtext, .string(result.description)), (Runner.PropertyKey.actions, .strings(actions))]),
        ])
    }

    /// KRunner's one action besides opening: Complete.
    static var completeAction: BusValue {
        .structure([.string(SearchObjects.KRunnerAction.complete.rawValue), .string(SleepSearchText.completeAction), .string("dialog-ok-apply")])
    }
}

/// Serves the bus on the agent's loop thread only: the compiler keeps it there.
@available(*, unavailable)
extension SearchService: Sendable {}
