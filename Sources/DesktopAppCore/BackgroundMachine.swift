/// When the app stays running with its window closed, and when it ends.
///
/// While a Sleep is mirrored on the desktop the app is what renews its
/// action token and hears that it was stopped on another device: its web
/// view (the web app's session and realtime updates) and its bridge must
/// live on when the window closes. So closing the window then hides it and
/// holds the application; with nothing mirrored, closing quits as it always
/// did. A hidden app whose last timer ends quits by itself after a short
/// grace (a timer replaced by the next one does not end it). Quit always
/// quits.
///
/// The shell (Sources/DesktopApp) tells it the window's and the agent's
/// news, one method per event, and carries out what each returns.
public struct BackgroundMachine: Sendable, Equatable {
    public struct Settings: Sendable, Equatable {
        /// How long a hidden app with no timer left waits before it quits.
        public var grace: Duration

        public init(grace: Duration = .seconds(10)) {
            self.grace = grace
        }
    }

    public struct State: Sendable, Equatable {
        /// Where the window and the app are. Each phase carries only what
        /// can be true in it: a shown window has no hold and no grace
        /// (showing it ends both), and once quit is decided nothing
        /// follows.
        public enum Phase: Sendable, Equatable {
            case shown
            /// The window is hidden, or made and never shown. `held`:
            /// g_application_hold was asked and not yet released; `grace`:
            /// the app quits when the grace ends, no timer needing it.
            case hidden(held: Bool, grace: Bool)
            case quitting
        }

        public fileprivate(set) var phase: Phase
        /// What the agent mirrors, as its last List said.
        public fileprivate(set) var timers: [ListedTimer] = []
        /// The notice was given (in this run or an earlier one).
        public fileprivate(set) var noticeGiven: Bool

        public init(visible: Bool = true, noticeGiven: Bool = false) {
            phase = visible ? .shown : .hidden(held: false, grace: false)
            self.noticeGiven = noticeGiven
        }

        /// The timers that need the app: all but those whose completion is
        /// already recorded and being sent.
        var keepingTheAppRunning: [ListedTimer] { timers.filter(\.needsTheApp) }
    }

    public let settings: Settings
    private(set) var state: State

    public init(settings: Settings = Settings(), visible: Bool = true, noticeGiven: Bool = false) {
        self.settings = settings
        state = State(visible: visible, noticeGiven: noticeGiven)
    }

    /// What any of the window's or the agent's news leads to, one type for
    /// every event: the shell carries out a hold, a release or a quit the
    /// same way whichever event it came from. Only a close hides the window
    /// or gives the notice; only a hidden window's timers start the grace.
    public enum Action: Sendable, Equatable {
        case hideWindow
        /// g_application_hold: the app runs with no window shown.
        case hold
        /// g_application_release.
        case release
        /// Say once, ever, that the app keeps running and how to quit it.
        case notice(String)
        case startGrace(Duration)
        case cancelGrace
        /// Quit for real. `sayWhatStops`: timers are still mirrored, and the
        /// parent is told in one line what no longer happens.
        case quit(sayWhatStops: Bool)
    }

    /// The window's close button, the window manager, Ctrl+W. A shown
    /// window has no hold and no grace to end, so with nothing mirrored it
    /// simply quits.
    public mutating func closeRequested() -> [Action] {
        guard state.phase == .shown else { return [] }
        let needed = state.keepingTheAppRunning
        guard !needed.isEmpty else {
            state.phase = .quitting
            return [.quit(sayWhatStops: false)]
        }
        state.phase = .hidden(held: true, grace: false)
        var actions: [Action] = [.hideWindow, .hold]
        if !state.noticeGiven {
            state.noticeGiven = true
            actions.append(.notice(AppText.keepsRunning(babyNames: needed.map(\.babyName))))
        }
        return actions
    }

    /// The window was presented (a launch, a link, the panel, the
    /// notification's Open).
    public mutating func shown() -> [Action] {
        guard case .hidden(let held, let grace) = state.phase else { return [] }
        state.phase = .shown
        return (grace ? [.cancelGrace] : []) + (held ? [.release] : [])
    }

    /// The app was started in the background (the agent's `background`
    /// action): a window that is never shown, held or on its way out as
    /// the timers already listed say.
    public mutating func startedHidden() -> [Action] {
        switch state.phase {
        case .quitting: return []
        case .shown: state.phase = .hidden(held: false, grace: false)
        case .hidden: break
        }
        return followTimers()
    }

    /// What the agent mirrors now (its List after a change; none when the
    /// agent is not on the bus).
    public mutating func timersListed(_ timers: [ListedTimer]) -> [Action] {
        guard state.phase != .quitting else { return [] }
        state.timers = timers
        return followTimers()
    }

    /// The grace asked for has passed: the hidden app, which no timer
    /// needs (one that did would have ended the grace), quits.
    public mutating func graceElapsed() -> [Action] {
        guard case .hidden(let held, grace: true) = state.phase else { return [] }
        state.phase = .quitting
        return (held ? [.release] : []) + [.quit(sayWhatStops: false)]
    }

    /// Ctrl+Q, the window's menu, the panel item's menu, SIGTERM.
    public mutating func quitRequested() -> [Action] {
        var actions: [Action] = []
        switch state.phase {
        case .quitting: return []
        case .shown: break
        case .hidden(let held, let grace): actions = (grace ? [.cancelGrace] : []) + (held ? [.release] : [])
        }
        state.phase = .quitting
        return actions + [.quit(sayWhatStops: !state.keepingTheAppRunning.isEmpty)]
    }

    /// A hidden app: held while a timer needs it, on its way out after the
    /// grace when none does. A shown window follows nothing.
    private mutating func followTimers() -> [Action] {
        guard case .hidden(let held, let grace) = state.phase else { return [] }
        if state.keepingTheAppRunning.isEmpty {
            guard !grace else { return [] }
            state.phase = .hidden(held: held, grace: true)
            return [.startGrace(settings.grace)]
        }
        state.phase = .hidden(held: true, grace: false)
        return (grace ? [.cancelGrace] : []) + (held ? [] : [.hold])
    }
}

/// A timer the agent mirrors, as its List names it: only what the app's
/// decisions and words need.
public struct ListedTimer: Sendable, Equatable {
    public let babyName: String
    /// List's `state`: running, token-expired, saving, save-failed, needs-app.
    public let state: String

    public init(babyName: String, state: String) {
        self.babyName = babyName
        self.state = state
    }

    /// A timer whose completion is being sent needs nothing more of the
    /// app; every other one may need a renewal or a reconcile.
    public var needsTheApp: Bool { state != "saving" }
}
