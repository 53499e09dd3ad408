import AgentWorkflows
import DFLDBus
import SleepTimerCore

/// Follows who owns org.freedesktop.Notifications on the session bus, and
/// what that server can do, through the agent's own bus connection: the
/// owner's arrival, restart and departure come as NameOwnerChanged, and its
/// capabilities are asked for without blocking the loop. What the answers
/// mean, and when to ask again after an error, is ServerDiscoveryMachine's
/// decision. xfce4-notifyd's Do Not Disturb is followed in its settings,
/// xfconf, where alone it is announced. It owns no timer: when
/// ServerDiscoveryMachine wants to ask again, the moment goes to the agent's one
/// schedule (`onWakeAt`), which calls `wake(now:)` then.
final class NotificationServerWatch {
    static let name = ExternalInterface.Notifications.name
    static let path = ExternalInterface.Notifications.path

    /// xfconf, and where xfce4-notifyd keeps Do Not Disturb.
    enum Xfconf {
        static let name = "org.xfce.Xfconf"
        static let path = "/org/xfce/Xfconf"
        static let channel = "xfce4-notifyd"
        static let doNotDisturb = "/do-not-disturb"
        static let propertyChanged = "PropertyChanged"
        static let propertyRemoved = "PropertyRemoved"

        static func match(_ member: String) -> String {
            "type='signal',interface='\(name)',member='\(member)',arg0='\(channel)',arg1='\(doNotDisturb)'"
        }
    }

    private let connection: BusConnection
    private let clock: any WallClock
    private let log: any LogSink
    private var discovery = ServerDiscoveryMachine()
    /// Called with the new server (nil when there is none) after every change.
    var onChange: ((NotificationServer?) -> Void)?
    /// Called after every event with the moment the watch next needs the
    /// loop, nil when it needs none.
    var onWakeAt: ((Instant?) -> Void)?

    init(connection: BusConnection, clock: any WallClock, log: any LogSink) {
        self.connection = connection
        self.clock = clock
        self.log = log
    }

    func start() {
        do {
            try connection.addMatch(StandardInterface.Bus.ownerChangedMatch(of: Self.name))
        } catch {
            log.log(.warning, "Cannot follow the notification server: \(error.message)")
        }
        do {
            for member in [Xfconf.propertyChanged, Xfconf.propertyRemoved] { try connection.addMatch(Xfconf.match(member)) }
        } catch {
            log.log(.warning, "Cannot follow Do Not Disturb of xfce4-notifyd: \(error.message)")
        }
        connection.addSignalFilter { [weak self] message in
            guard let self, message.kind == .signal, message.interface == Xfconf.name,
                let arguments = try? message.arguments(), arguments.count >= 2,
                arguments[0].stringValue == Xfconf.channel, arguments[1].stringValue == Xfconf.doNotDisturb
            else { return false }
            let on = message.member == Xfconf.propertyChanged && arguments.count == 3
                && arguments[2].unwrapped.booleanValue == true
            self.run { $0.doNotDisturbHeard(on).map(Step.init) }
            return false
        }
        connection.addSignalFilter { [weak self] message in
            guard let self, message.kind == .signal, message.sender == StandardInterface.Bus.name,
                message.member == StandardInterface.Bus.nameOwnerChanged, let arguments = try? message.arguments(),
                arguments.count == 3, arguments[0].stringValue == Self.name, let newOwner = arguments[2].stringValue
            else { return false }
            self.run { $0.ownerChanged(newOwner.isEmpty ? nil : newOwner).map(Step.init) }
            return false
        }
        let question = Message.methodCall(
            destination: StandardInterface.Bus.name, path: StandardInterface.Bus.path,
            interface: StandardInterface.Bus.name, member: StandardInterface.Bus.getNameOwner
        ).append(.string(Self.name))
        connection.call(question) { [weak self] result in
            // NameHasNoOwner: no server yet; NameOwnerChanged tells when one comes.
            guard let self, case .success(let reply) = result, let owner = (try? reply.arguments())?.first?.stringValue
            else { return }
            self.run { $0.ownerChanged(owner).map(Step.init) }
        }
    }

    /// The moment the watch asked for has come.
    func wake(now: Instant) {
        run { $0.woke(now: now).map { [Step($0)] } ?? [] }
    }

    /// What the watch does after one event, in order: what the machine's
    /// action for it asks of the bus, the agent and the log.
    enum Step: Sendable, Equatable {
        /// Ask this owner for its capabilities and its information.
        case ask(owner: String)
        /// Ask xfconf whether xfce4-notifyd's Do Not Disturb is on.
        case askDoNotDisturb
        /// Tell the agent of the server to show notifications on (nil: none).
        case report(NotificationServer?)
        case log(LogPriority, String)
        /// Tell the agent's schedule when to wake the watch (nil: never).
        case wakeAt(Instant?)
    }

    /// The machine's actions for one event, then, after every event, the
    /// moment it waits for: the schedule forgets a wake once it has come,
    /// and an early one leaves the moment as it was, to be set again.
    static func steps(
        in discovery: inout ServerDiscoveryMachine, after event: (inout ServerDiscoveryMachine) -> [Step]
    ) -> [Step] {
        event(&discovery) + [.wakeAt(discovery.wakeAt)]
    }

    private func run(_ event: (inout ServerDiscoveryMachine) -> [Step]) {
        for step in Self.steps(in: &discovery, after: event) {
            switch step {
            case .ask(let owner): ask(owner)
            case .askDoNotDisturb: askDoNotDisturb()
            case .report(let server): onChange?(server)
            case .log(let priority, let message): log.log(priority, message)
            case .wakeAt(let moment): onWakeAt?(moment)
            }
        }
    }

    /// An error (the property was never set, or no xfconf) is "off".
    private func askDoNotDisturb() {
        let question = Message.methodCall(
            destination: Xfconf.name, path: Xfconf.path, interface: Xfconf.name, member: "GetProperty"
        ).append(.string(Xfconf.channel)).append(.string(Xfconf.doNotDisturb))
        connection.call(question) { [weak self] result in
            guard let self else { return }
            let on = (try? result.get().arguments())?.first?.unwrapped.booleanValue ?? false
            self.run { $0.doNotDisturbHeard(on).map(Step.init) }
        }
    }

    private func ask(_ owner: String) {
        connection.call(Message.methodCall(destination: owner, path: Self.path, interface: Self.name, member: "GetCapabilities")) {
            [weak self] result in
            guard let self else { return }
            // An error is "not known yet"; an answer that is no list, none.
            let answer = try? result.get().arguments()
            let capabilities = answer.map { $0.first?.arrayElements?.compactMap(\.stringValue) ?? [] }
            let now = self.clock.now()
            self.run { $0.capabilitiesAnswered(owner: owner, capabilities, now: now).map(Step.init) }
        }
        connection.call(Message.methodCall(destination: owner, path: Self.path, interface: Self.name, member: "GetServerInformation")) {
            [weak self] result in
            guard let self else { return }
            let fields = (try? result.get().arguments())?.compactMap(\.stringValue)
            let now = self.clock.now()
            self.run {
                $0.informationAnswered(
                    owner: owner, name: fields.map { $0.first ?? "unknown" },
                    version: fields.flatMap { $0.count > 2 ? $0[2] : nil } ?? "", now: now
                ).map(Step.init)
            }
        }
    }
}

extension NotificationServerWatch.Step {
    init(_ action: ServerDiscoveryMachine.OwnerChangedAction) {
        switch action {
        case .ask(let owner): self = .ask(owner: owner)
        case .reportNoServer: self = .report(nil)
        case .log(let priority, let message): self = .log(priority, message)
        }
    }

    init(_ action: ServerDiscoveryMachine.AnsweredAction) {
        switch action {
        case .askDoNotDisturb: self = .askDoNotDisturb
        case .report(let server): self = .report(server)
        case .log(let priority, let message): self = .log(priority, message)
        }
    }

    init(_ action: ServerDiscoveryMachine.WokeAction) {
        switch action {
        case .ask(let owner): self = .ask(owner: owner)
        }
    }

    init(_ action: ServerDiscoveryMachine.DoNotDisturbHeardAction) {
        switch action {
        case .ask(let owner): self = .ask(owner: owner)
        case .log(let priority, let message): self = .log(priority, message)
        }
    }
}

@available(*, unavailable, message: "The watch is confined to the agent's loop, as its bus connection is.")
extension NotificationServerWatch: Sendable {}
