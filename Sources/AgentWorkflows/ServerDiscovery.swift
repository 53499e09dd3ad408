import SleepTimerCore

/// What the notification server on the bus can do, learnt rather than
/// assumed: its capabilities and name are asked for when an owner takes
/// org.freedesktop.Notifications, and asked again, with a short backoff,
/// while it answers with errors (GNOME Shell's notification service does
/// for a moment while the Shell starts). An error never becomes "no
/// actions"; the server is reported only once both answers are in.
///
/// xfce4-notifyd 0.8.2 and later show nothing during Do Not Disturb (they
/// close what they showed, and from 0.9 every new notification at once) yet
/// still say they have actions, and say nothing on their own bus name when
/// Do Not Disturb ends: only their settings (xfconf's PropertyChanged of
/// /do-not-disturb) tell. (0.7 keeps what it showed, buttons working.)
/// While it is on, the server is reported without actions, so nothing
/// offers a button no one can press; when it ends, with them again.
public struct ServerDiscovery: Sendable {
    public enum Event: Sendable, Equatable {
        /// NameOwnerChanged (or the first GetNameOwner): the name's owner, nil
        /// when none has it.
        case ownerChanged(String?, now: Instant)
        /// GetCapabilities answered (nil: with an error).
        case capabilities(owner: String, [String]?, now: Instant)
        /// GetServerInformation answered with its name and version (nil: an
        /// error).
        case information(owner: String, name: String?, version: String, now: Instant)
        /// The moment `wakeAt` named has come.
        case wake(now: Instant)
        /// xfce4-notifyd's Do Not Disturb setting, as xfconf answered or
        /// announced it (unset is off).
        case doNotDisturb(Bool, now: Instant)
    }

    public enum Action: Sendable, Equatable {
        /// Ask this owner for its capabilities and its information.
        case ask(owner: String)
        /// Ask xfconf whether xfce4-notifyd's Do Not Disturb is on.
        case askDoNotDisturb
        /// The server to show notifications on; nil when there is none.
        case report(NotificationServer?)
        case log(LogPriority, String)
    }

    /// The wait before asking again, from the first failed answer on.
    public let backoff: Backoff

    private var owner: String?
    private var capabilities: [String]??
    private var information: (name: String, version: String)??
    private var failures = 0
    private var reported: NotificationServer?
    private var doNotDisturb = false
    /// Whether the reported server hides everything during Do Not Disturb.
    private var reportedHides = false
    /// Whether xfconf was asked about Do Not Disturb for the current owner.
    private var askedDoNotDisturb = false
    public private(set) var wakeAt: Instant?

    /// The name xfce4-notifyd gives in GetServerInformation.
    public static let xfceServerName = "Xfce Notify Daemon"
    /// The first xfce4-notifyd that hides everything during Do Not Disturb.
    static let firstHidingVersion = [0, 8, 2]

    /// Whether a server of this name and version hides its notifications,
    /// buttons and all, during Do Not Disturb.
    public static func hidesDuringDoNotDisturb(name: String, version: String) -> Bool {
        guard name == xfceServerName else { return false }
        let numbers = version.split(separator: ".").map { Int($0.prefix { $0.isASCII && $0.isNumber }) ?? 0 }
        return !numbers.lexicographicallyPrecedes(firstHidingVersion)
    }

    public init(backoff: Backoff = Backoff(first: .milliseconds(250), longest: .seconds(10))) {
        self.backoff = backoff
    }

    public mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .ownerChanged(let new, _):
            guard new != owner || new == nil else { return [] }
            owner = new
            capabilities = nil
            information = nil
            failures = 0
            wakeAt = nil
            askedDoNotDisturb = false
            guard let new else {
                guard reported != nil else { return [] }
                reported = nil
                return [.log(.notice, "The notification server went away."), .report(nil)]
            }
            return [.ask(owner: new)]
        case .capabilities(let from, let answer, let now):
            guard from == owner, wakeAt == nil else { return [] }
            capabilities = .some(answer)
            return settle(now: now)
        case .information(let from, let name, let version, let now):
            guard from == owner, wakeAt == nil else { return [] }
            information = .some(name.map { ($0, version) })
            return settle(now: now)
        case .wake(let now):
            guard let owner, let due = wakeAt, due <= now else { return [] }
            wakeAt = nil
            capabilities = nil
            information = nil
            return [.ask(owner: owner)]
        case .doNotDisturb(let on, let now):
            guard on != doNotDisturb else { return [] }
            doNotDisturb = on
            guard let owner, reported != nil, reportedHides, wakeAt == nil else { return [] }
            // Asked again: a later xfce4-notifyd also leaves out its
            // actions while Do Not Disturb is on.
            capabilities = nil
            information = nil
            return [.log(.notice, on
                ? "Do Not Disturb is on: the notifications offer no buttons until it ends."
                : "Do Not Disturb is off: the notifications offer their buttons again."), .ask(owner: owner)]
        }
    }

    /// Once both answers are in: the server, or another try after a wait.
    private mutating func settle(now: Instant) -> [Action] {
        guard let owner, case .some(let capabilities) = capabilities, case .some(let information) = information else {
            return []
        }
        guard let capabilities, let information else {
            failures += 1
            let wait = backoff.wait(afterFailures: failures)
            wakeAt = now + wait
            return [.log(failures == 1 ? .notice : .debug,
                         "The notification server \(owner) could not say yet what it can do; asking again in \(wait.wholeMilliseconds) ms.")]
        }
        var traits = NotificationServerTraits(
            capabilities: capabilities, serverName: information.name, version: information.version)
        let xfce = Self.hidesDuringDoNotDisturb(name: information.name, version: information.version)
        if xfce && doNotDisturb { traits.actions = false }
        let server = NotificationServer(
            owner: owner, displayName: "\(information.name) \(information.version)".trimmingSpaces(), traits: traits)
        failures = 0
        var actions: [Action] = []
        if xfce && !askedDoNotDisturb {
            askedDoNotDisturb = true
            actions.append(.askDoNotDisturb)
        }
        guard server != reported else { return actions }
        let first = reported?.owner != owner
        reported = server
        reportedHides = xfce
        if first {
            actions.append(.log(
                .info, "Notification server: \(server.displayName) (\(owner)), capabilities: \(capabilities.joined(separator: " "))."))
        }
        return actions + [.report(server)]
    }
}

extension String {
    func trimmingSpaces() -> String {
        var text = Substring(self)
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return String(text)
    }
}
