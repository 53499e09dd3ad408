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
public struct ServerDiscoveryMachine: Sendable {
    public struct Settings: Sendable, Equatable {
        /// The wait before asking again, from the first failed answer on.
        public var backoff: Backoff

        public init(backoff: Backoff = Backoff(first: .milliseconds(250), longest: .seconds(10))) {
            self.backoff = backoff
        }
    }

    /// GetServerInformation's answer, as far as the machine reads it.
    public struct ServerInformation: Sendable, Equatable {
        public var name: String
        public var version: String

        public init(name: String, version: String) {
            self.name = name
            self.version = version
        }
    }

    public struct State: Sendable, Equatable {
        /// Who owns org.freedesktop.Notifications; nil when no one does.
        public fileprivate(set) var owner: String?
        /// The owner's answer to GetCapabilities: nil until it came,
        /// `.some(nil)` when it was an error.
        public fileprivate(set) var capabilities: [String]??
        /// The owner's answer to GetServerInformation, as `capabilities`.
        public fileprivate(set) var information: ServerInformation??
        /// The owner's failed rounds of answers in a row.
        public fileprivate(set) var failures = 0
        /// The server reported last; nil when none was, or it went away.
        public fileprivate(set) var reported: NotificationServer?
        /// Whether xfce4-notifyd's Do Not Disturb is on, as last heard.
        public fileprivate(set) var doNotDisturb = false
        /// Whether the reported server hides everything during Do Not
        /// Disturb.
        public fileprivate(set) var reportedHides = false
        /// Whether xfconf was asked about Do Not Disturb for this owner.
        public fileprivate(set) var askedDoNotDisturb = false
        /// When the owner is asked again after an error; nil when no retry
        /// waits.
        public fileprivate(set) var wakeAt: Instant?

        /// No owner known, nothing reported: the agent's start.
        public init() {}
    }

    public let settings: Settings
    private(set) var state = State()

    /// When the owner is asked again after an error, nil when no retry
    /// waits: the shell sets its wake-up there after every event.
    public var wakeAt: Instant? { state.wakeAt }

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

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    // MARK: The name's owner

    public enum OwnerChangedAction: Sendable, Equatable {
        /// Ask this owner for its capabilities and its information.
        case ask(owner: String)
        /// There is no server to show notifications on any more.
        case reportNoServer
        case log(LogPriority, String)
    }

    /// NameOwnerChanged (or the first GetNameOwner) named the owner of
    /// org.freedesktop.Notifications: nil when none has it.
    public mutating func ownerChanged(_ new: String?) -> [OwnerChangedAction] {
        guard new != state.owner || new == nil else { return [] }
        state.owner = new
        state.capabilities = nil
        state.information = nil
        state.failures = 0
        state.wakeAt = nil
        state.askedDoNotDisturb = false
        guard let new else {
            guard state.reported != nil else { return [] }
            state.reported = nil
            return [.log(.notice, "The notification server went away."), .reportNoServer]
        }
        return [.ask(owner: new)]
    }

    // MARK: The owner's answers

    /// What the owner's answers lead to, once both are in.
    public enum AnsweredAction: Sendable, Equatable {
        /// Ask xfconf whether xfce4-notifyd's Do Not Disturb is on.
        case askDoNotDisturb
        /// The server to show notifications on.
        case report(NotificationServer)
        case log(LogPriority, String)
    }

    /// GetCapabilities answered (nil: with an error).
    public mutating func capabilitiesAnswered(owner from: String, _ answer: [String]?, now: Instant) -> [AnsweredAction] {
        guard from == state.owner, state.wakeAt == nil else { return [] }
        state.capabilities = .some(answer)
        return settle(now: now)
    }

    /// GetServerInformation answered with its name and version (nil: an
    /// error).
    public mutating func informationAnswered(owner from: String, name: String?, version: String, now: Instant) -> [AnsweredAction] {
        guard from == state.owner, state.wakeAt == nil else { return [] }
        state.information = .some(name.map { ServerInformation(name: $0, version: version) })
        return settle(now: now)
    }

    /// Once both answers are in: the server, or another try after a wait.
    private mutating func settle(now: Instant) -> [AnsweredAction] {
        guard let owner = state.owner, case .some(let capabilities) = state.capabilities,
            case .some(let information) = state.information
        else {
            return []
        }
        guard let capabilities, let information else {
            state.failures += 1
            let wait = settings.backoff.wait(afterFailures: state.failures)
            state.wakeAt = now + wait
            return [.log(state.failures == 1 ? .notice : .debug,
                         "The notification server \(owner) could not say yet what it can do; asking again in \(wait.wholeMilliseconds) ms.")]
        }
        var traits = NotificationServerTraits(
            capabilities: capabilities, serverName: information.name, version: information.version)
        let xfce = Self.hidesDuringDoNotDisturb(name: information.name, version: information.version)
        if xfce && state.doNotDisturb { traits.actions = false }
        let server = NotificationServer(
            owner: owner, displayName: "\(information.name) \(information.version)".trimmingSpaces(), traits: traits)
        state.failures = 0
        var actions: [AnsweredAction] = []
        if xfce && !state.askedDoNotDisturb {
            state.askedDoNotDisturb = true
            actions.append(.askDoNotDisturb)
        }
        guard server != state.reported else { return actions }
        let first = state.reported?.owner != owner
        state.reported = server
        state.reportedHides = xfce
        if first {
            actions.append(.log(
                .info, "Notification server: \(server.displayName) (\(owner)), capabilities: \(capabilities.joined(separator: " "))."))
        }
        return actions + [.report(server)]
    }

    // MARK: The retry's moment

    public enum WokeAction: Sendable, Equatable {
        /// Ask this owner again for its capabilities and its information.
        case ask(owner: String)
    }

    /// The loop woke at `now` for `state.wakeAt`; nil when it is not due
    /// (an early wake) or nothing waits.
    public mutating func woke(now: Instant) -> WokeAction? {
        guard let owner = state.owner, let due = state.wakeAt, due <= now else { return nil }
        state.wakeAt = nil
        state.capabilities = nil
        state.information = nil
        return .ask(owner: owner)
    }

    // MARK: Do Not Disturb

    public enum DoNotDisturbHeardAction: Sendable, Equatable {
        /// Ask this owner again: its actions come and go with the setting.
        case ask(owner: String)
        case log(LogPriority, String)
    }

    /// xfce4-notifyd's Do Not Disturb setting, as xfconf answered or
    /// announced it (unset is off).
    public mutating func doNotDisturbHeard(_ on: Bool) -> [DoNotDisturbHeardAction] {
        guard on != state.doNotDisturb else { return [] }
        state.doNotDisturb = on
        guard let owner = state.owner, state.reported != nil, state.reportedHides, state.wakeAt == nil else { return [] }
        // Asked again: a later xfce4-notifyd also leaves out its
        // actions while Do Not Disturb is on.
        state.capabilities = nil
        state.information = nil
        return [.log(.notice, on
            ? "Do Not Disturb is on: the notifications offer no buttons until it ends."
            : "Do Not Disturb is off: the notifications offer their buttons again."), .ask(owner: owner)]
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
