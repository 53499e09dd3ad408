import SleepTimerCore

/// The agent's two keyboard shortcuts through the desktop's GlobalShortcuts
/// portal: when it asks for them (whenever a portal is on the bus: at the
/// agent's start if one is there, else once one comes, and anew from a
/// portal started again, which holds no session; Plasma 6.7 activates a
/// shortcut only after BindShortcuts in each session), what each answer of
/// the portal leads to, and which activation does what. The shell makes the
/// calls and hands the answers back; it decides nothing. The agent never
/// starts a portal for its shortcuts: that would start the portal and its
/// backends with every agent, also where no desktop runs.
///
/// The steps, in order: on the host, the app id is registered with the
/// portal first (xdg-desktop-portal 1.21 and later want one of a program
/// outside a sandbox; an older portal has no registry, which is no fault);
/// then the interface's version is read (no interface: the desktop offers
/// no such shortcuts, said once); then a session is created and the two
/// shortcuts bound in it. Activations count only for the session bound.
public struct GlobalShortcutsMachine: Sendable {
    /// The shortcuts the agent offers, by the ids the portal knows them by.
    public enum Shortcut: String, Sendable, CaseIterable {
        case completeRunningSleep = "complete-running-sleep"
        case openRunningSleep = "open-running-sleep"

        /// The keys suggested to the desktop, which the person may change:
        /// Ctrl+Alt+Shift with a letter, which neither GNOME's nor KDE's
        /// defaults use. Spelled as the shortcuts specification spells
        /// them.
        public var preferredTrigger: String {
            switch self {
            case .completeRunningSleep: return "CTRL+ALT+SHIFT+s"
            case .openRunningSleep: return "CTRL+ALT+SHIFT+o"
            }
        }
    }

    public enum State: Sendable, Equatable {
        /// No portal on the bus (yet, or any more).
        case idle
        /// The app id's registration is asked for (on the host).
        case registering
        /// The interface's version is asked for.
        case askingVersion
        /// CreateSession is asked for.
        case creatingSession
        /// BindShortcuts is asked for in this session.
        case binding(session: String)
        /// The shortcuts are bound in this session: its activations count.
        case bound(session: String)
        /// Nothing more is asked: the portal is missing, refused, or failed.
        case stopped
    }

    private(set) var state: State = .idle

    public init() {}

    /// What a portal call that did not answer came to, as the shell reads
    /// the error's name.
    public enum CallFailure: Error, Sendable, Equatable {
        /// The portal, the interface or the method is not there (no
        /// portal, an old one, a desktop without GlobalShortcuts).
        case missing(String)
        /// Anything else: an error of the portal's, no reply in time.
        case failed(String)
    }

    /// What a request of the portal came to: its Response, or the call's
    /// own failure.
    public enum RequestAnswer<Value: Sendable & Equatable>: Sendable, Equatable {
        /// Response 0, with what it carried.
        case answered(Value)
        /// Response 1 (the person cancelled, as in GNOME's dialog) or 2
        /// (the desktop ended it), with what the results carried all the
        /// same (nil: nothing of the kind): xdg-desktop-portal-gnome 48
        /// answers a binding it made with an unset code, in practice 2,
        /// and the bound shortcuts (fixed in 49, its commit 2751190).
        case refused(code: UInt32, results: Value? = nil)
        case callFailed(CallFailure)
    }

    /// A shortcut as BindShortcuts' answer lists it: its id and the keys
    /// the desktop says it is on ("" when none).
    public struct BoundShortcut: Sendable, Equatable {
        public var id: String
        public var trigger: String

        public init(id: String, trigger: String) {
            self.id = id
            self.trigger = trigger
        }
    }

    /// The steps of the binding and its log lines: every event but
    /// `activated` leads to some of these.
    public enum Action: Sendable, Equatable {
        /// Register the app's id with the host's portal registry.
        case registerAppID
        /// Read the GlobalShortcuts interface's version.
        case askVersion
        /// CreateSession.
        case createSession
        /// BindShortcuts of every `Shortcut` in this session.
        case bind(session: String)
        case log(LogPriority, String)
    }

    /// A portal is on the bus: everything is asked for anew, whatever an
    /// earlier one had answered. In a sandbox the portal knows the app by
    /// the sandbox; on the host it is told the app's id first.
    public mutating func portalAppeared(sandboxed: Bool) -> Action {
        if sandboxed {
            state = .askingVersion
            return .askVersion
        }
        state = .registering
        return .registerAppID
    }

    /// The portal left the bus, and its session with it: no activation
    /// counts until a portal comes again and binds.
    public mutating func portalLeft() {
        state = .idle
    }

    /// The registry answered. A missing registry (a portal older than
    /// 1.21) is no fault; a refusal (the connection already called a
    /// portal) is said, and the binding goes on either way.
    public mutating func registered(_ failure: CallFailure?) -> [Action] {
        guard state == .registering else { return [] }
        state = .askingVersion
        if case .failed(let why)? = failure {
            return [.log(.notice, "The portal did not register the agent's app id (\(why)); the shortcuts are asked for without it."),
                    .askVersion]
        }
        return [.askVersion]
    }

    /// The interface's version, or why it could not be read: without it,
    /// the desktop offers no global shortcuts through the portal.
    public mutating func versionAnswered(_ answer: Result<UInt32, CallFailure>) -> [Action] {
        guard state == .askingVersion else { return [] }
        switch answer {
        case .success:
            state = .creatingSession
            return [.createSession]
        case .failure(let failure):
            state = .stopped
            return [.log(.notice, Self.unavailable(Self.reason(failure)))]
        }
    }

    /// CreateSession's Response: the session's handle.
    public mutating func sessionCreated(_ answer: RequestAnswer<String>) -> [Action] {
        guard state == .creatingSession else { return [] }
        switch answer {
        case .answered(let session):
            state = .binding(session: session)
            return [.bind(session: session)]
        case .refused(let code, _):
            state = .stopped
            return [.log(.notice, Self.unavailable("the portal refused a session, response \(code)"))]
        case .callFailed(let failure):
            state = .stopped
            return [.log(.notice, Self.unavailable(Self.reason(failure)))]
        }
    }

    /// BindShortcuts' Response: the shortcuts the desktop holds, with the
    /// keys it put them on.
    public mutating func bindAnswered(_ answer: RequestAnswer<[BoundShortcut]>) -> [Action] {
        guard case .binding(let session) = state else { return [] }
        let shortcuts: [BoundShortcut]
        switch answer {
        case .answered(let listed):
            shortcuts = listed
        // GNOME 48's answer to a binding it made: the binding it is.
        case .refused(2, let listed?) where listed.contains(where: { Shortcut(rawValue: $0.id) != nil }):
            shortcuts = listed
        case .refused(let code, _):
            state = .stopped
            let why = code == 1 ? "the shortcuts were declined" : "the portal refused the shortcuts, response \(code)"
            return [.log(.notice, Self.unavailable(why))]
        case .callFailed(let failure):
            state = .stopped
            return [.log(.notice, Self.unavailable(Self.reason(failure)))]
        }
        state = .bound(session: session)
        let ours = Shortcut.allCases.map { shortcut in
            guard let bound = shortcuts.first(where: { $0.id == shortcut.rawValue }) else {
                return "\(shortcut.rawValue) (not taken by the desktop)"
            }
            return bound.trigger.isEmpty
                ? "\(shortcut.rawValue) (no keys yet; the desktop's settings can set them)"
                : "\(shortcut.rawValue) on \(bound.trigger)"
        }
        return [.log(.info, "Global shortcuts bound through the portal: \(ours.joined(separator: ", ")).")]
    }

    public enum ActivatedAction: Sendable, Equatable {
        /// As CompleteRunning: the one running Sleep completed, none told,
        /// several leave the app open at its start.
        case completeRunning
        /// As OpenRunning.
        case openRunning
    }

    /// The portal's Activated: one of ours, in the session bound, does
    /// what it names; any other (an older session's, an unknown id) does
    /// nothing.
    public func activated(session: String, shortcutID: String) -> ActivatedAction? {
        guard case .bound(let bound) = state, bound == session, let shortcut = Shortcut(rawValue: shortcutID) else {
            return nil
        }
        switch shortcut {
        case .completeRunningSleep: return .completeRunning
        case .openRunningSleep: return .openRunning
        }
    }

    private static func reason(_ failure: CallFailure) -> String {
        switch failure {
        case .missing(let why): return "the desktop's portal has no GlobalShortcuts: \(why)"
        case .failed(let why): return "the portal failed: \(why)"
        }
    }

    /// The one line that says there are no portal shortcuts, and what to
    /// bind instead.
    static func unavailable(_ why: String) -> String {
        "No global shortcuts through the portal (\(why)); to complete the running Sleep from the keyboard, "
            + "bind `dfl-sleepctl complete --running` (and `dfl-sleepctl open --running`) to keys in the desktop's keyboard settings."
    }
}
