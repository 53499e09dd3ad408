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
        /// The window is shown. A shown window has no hold and no grace:
        /// showing it ends both.
        public fileprivate(set) var visible: Bool
        /// g_application_hold was asked and not yet released.
        public fileprivate(set) var held = false
        public fileprivate(set) var graceRunning = false
        /// What the agent mirrors, as its last List said.
        public fileprivate(set) var timers: [ListedTimer] = []
        /// The notice was given (in this run or an earlier one).
        public fileprivate(set) var noticeGiven: Bool
        /// Quit was decided: nothing follows.
        public fileprivate(set) var quitting = false

        public init(visible: Bool = true, noticeGiven: Bool = false) {
            self.visible = visible
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
        guard !state.quitting, state.visible else { return [] }
        let needed = state.keepingTheAppRunning
        guard !needed.isEmpty else {
            state.quitting = true
            return [.quit(sayWhatStops: false)]
        }
        state.visible = false
        var actions: [Action] = [.hideWindow]
        if hold() { actions.append(.hold) }
        if !state.noticeGiven {
            state.noticeGiven = true
            actions.append(.notice(AppText.keepsRunning(babyNames: needed.map(\.babyName))))
        }
        return actions
    }

    /// The window was presented (a launch, a link, the panel, the
    /// notification's Open).
    public mutating func shown() -> [Action] {
        guard !state.quitting else { return [] }
        state.visible = true
        var actions: [Action] = []
        if cancelGrace() { actions.append(.cancelGrace) }
        if release() { actions.append(.release) }
        return actions
    }

    /// The app was started in the background (the agent's `background`
    /// action): a window that is never shown, held or on its way out as
    /// the timers already listed say.
    public mutating func startedHidden() -> [Action] {
        guard !state.quitting else { return [] }
        state.visible = false
        return followTimers()
    }

    /// What the agent mirrors now (its List after a change; none when the
    /// agent is not on the bus).
    public mutating func timersListed(_ timers: [ListedTimer]) -> [Action] {
        guard !state.quitting else { return [] }
        state.timers = timers
        return state.visible ? [] : followTimers()
    }

    /// The grace asked for has passed: a hidden app that no timer needs
    /// quits.
    public mutating func graceElapsed() -> [Action] {
        guard !state.quitting, state.graceRunning else { return [] }
        state.graceRunning = false
        guard !state.visible, state.keepingTheAppRunning.isEmpty else { return [] }
        state.quitting = true
        var actions: [Action] = []
        if release() { actions.append(.release) }
        actions.append(.quit(sayWhatStops: false))
        return actions
    }

    /// Ctrl+Q, the window's menu, the panel item's menu, SIGTERM.
    public mutating func quitRequested() -> [Action] {
        guard !state.quitting else { return [] }
        state.quitting = true
        var actions: [Action] = []
        if cancelGrace() { actions.append(.cancelGrace) }
        if release() { actions.append(.release) }
        actions.append(.quit(sayWhatStops: !state.keepingTheAppRunning.isEmpty))
        return actions
    }

    /// A hidden app: held while a timer needs it, on its way out after the
    /// grace when none does.
    private mutating func followTimers() -> [Action] {
        var actions: [Action] = []
        if state.keepingTheAppRunning.isEmpty {
            if !state.graceRunning {
                state.graceRunning = true
                actions.append(.startGrace(settings.grace))
            }
        } else {
            if cancelGrace() { actions.append(.cancelGrace) }
            if hold() { actions.append(.hold) }
        }
        return actions
    }

    /// The hold, the release and the grace's end, each true only when it
    /// changes something (and so is to be said).
    private mutating func hold() -> Bool {
        guard !state.held else { return false }
        state.held = true
        return true
    }

    private mutating func release() -> Bool {
        guard state.held else { return false }
        state.held = false
        return true
    }

    private mutating func cancelGrace() -> Bool {
        guard state.graceRunning else { return false }
        state.graceRunning = false
        return true
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
