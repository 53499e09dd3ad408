import AgentWorkflows
import DFLDBus
import EventLoop
import SleepTimerCore

/// Follows who owns org.freedesktop.Notifications on the session bus, and
/// what that server can do, through the agent's own bus connection: the
/// owner's arrival, restart and departure come as NameOwnerChanged, and its
/// capabilities are asked for without blocking the loop. What the answers
/// mean, and when to ask again after an error, is ServerDiscovery's
/// decision. xfce4-notifyd's Do Not Disturb is followed in its settings,
/// xfconf, where alone it is announced.
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
    private let loop: MainLoop
    private let clock: any WallClock
    private let log: any LogSink
    private var discovery = ServerDiscovery()
    private var retry: MainLoop.Source?
    /// Called with the new server (nil when there is none) after every change.
    var onChange: ((NotificationServer?) -> Void)?

    init(connection: BusConnection, loop: MainLoop, clock: any WallClock, log: any LogSink) {
        self.connection = connection
        self.loop = loop
        self.clock = clock
        self.log = log
    }

    /// A pending retry goes with the watch: the loop may outlive it.
    deinit { retry?.cancel() }

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
            self.run(.doNotDisturb(on, now: self.clock.now()))
            return false
        }
        connection.addSignalFilter { [weak self] message in
            guard let self, message.kind == .signal, message.sender == StandardInterface.Bus.name,
                message.member == StandardInterface.Bus.nameOwnerChanged, let arguments = try? message.arguments(),
                arguments.count == 3, arguments[0].stringValue == Self.name, let newOwner = arguments[2].stringValue
            else { return false }
            self.run(.ownerChanged(newOwner.isEmpty ? nil : newOwner, now: self.clock.now()))
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
            self.run(.ownerChanged(owner, now: self.clock.now()))
        }
    }

    private func run(_ event: ServerDiscovery.Event) {
        for action in discovery.handle(event) {
            switch action {
            case .ask(let owner): ask(owner)
            case .askDoNotDisturb: askDoNotDisturb()
            case .report(let server): onChange?(server)
            case .log(let priority, let message): log.log(priority, message)
            }
        }
        retry?.cancel()
        retry = nil
        guard let wakeAt = discovery.wakeAt else { return }
        let wait = UInt32(clamping: max(0, wakeAt.milliseconds(since: clock.now())))
        retry = loop.after(milliseconds: wait) { [weak self] in
            guard let self else { return .remove }
            self.retry = nil
            self.run(.wake(now: self.clock.now()))
            return .remove
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
            self.run(.doNotDisturb(on, now: self.clock.now()))
        }
    }

    private func ask(_ owner: String) {
        connection.call(Message.methodCall(destination: owner, path: Self.path, interface: Self.name, member: "GetCapabilities")) {
            [weak self] result in
            guard let self else { return }
            // An error is "not known yet"; an answer that is no list, none.
            let answer = try? result.get().arguments()
            let capabilities = answer.map { $0.first?.arrayElements?.compactMap(\.stringValue) ?? [] }
            self.run(.capabilities(owner: owner, capabilities, now: self.clock.now()))
        }
        connection.call(Message.methodCall(destination: owner, path: Self.path, interface: Self.name, member: "GetServerInformation")) {
            [weak self] result in
            guard let self else { return }
            let fields = (try? result.get().arguments())?.compactMap(\.stringValue)
            self.run(.information(
                owner: owner, name: fields.map { $0.first ?? "unknown" },
                version: fields.flatMap { $0.count > 2 ? $0[2] : nil } ?? "", now: self.clock.now()))
        }
    }
}

@available(*, unavailable, message: "The watch is confined to the agent's loop, as its bus connection is.")
extension NotificationServerWatch: Sendable {}
