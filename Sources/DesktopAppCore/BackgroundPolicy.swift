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
/// `(state, event) -> [action]`: the shell (Sources/DesktopApp) feeds it
/// the window's and the agent's news and carries the actions out.
public struct BackgroundPolicy: Sendable, Equatable {
    /// How long a hidden app with no timer left waits before it quits.
    public static let grace: Duration = .seconds(10)

    public enum Event: Sendable, Equatable {
        /// The window's close button, the window manager, Ctrl+W.
        case closeRequested
        /// The window was presented (a launch, a link, the panel, the
        /// notification's Open).
        case shown
        /// The app was started in the background (the agent's `background`
        /// action): a window that is never shown.
        case startedHidden
        /// What the agent mirrors now (its List after a change; none when
        /// the agent is not on the bus).
        case timers([ListedTimer])
        /// The grace the policy asked for has passed.
        case graceElapsed
        /// Ctrl+Q, the window's menu, the panel item's menu, SIGTERM.
        case quitRequested
    }

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

    public private(set) var visible: Bool
    public private(set) var held = false
    public private(set) var graceRunning = false
    public private(set) var timers: [ListedTimer] = []
    /// The notice was given (in this run or an earlier one).
    public private(set) var noticeGiven: Bool
    public private(set) var quitting = false

    public init(visible: Bool = true, noticeGiven: Bool = false) {
        self.visible = visible
        self.noticeGiven = noticeGiven
    }

    /// The timers that need the app: all but those whose completion is
    /// already recorded and being sent.
    var keepingTheAppRunning: [ListedTimer] { timers.filter(\.needsTheApp) }

    public mutating func handle(_ event: Event) -> [Action] {
        guard !quitting else { return [] }
        switch event {
        case .closeRequested:
            guard visible else { return [] }
            let needed = keepingTheAppRunning
            guard !needed.isEmpty else { return quit() }
            visible = false
            var actions: [Action] = [.hideWindow]
            hold(into: &actions)
            if !noticeGiven {
                noticeGiven = true
                actions.append(.notice(AppText.keepsRunning(babyNames: needed.map(\.babyName))))
            }
            return actions
        case .shown:
            visible = true
            var actions: [Action] = []
            cancelGrace(into: &actions)
            release(into: &actions)
            return actions
        case .startedHidden:
            visible = false
            return followTimers()
        case .timers(let timers):
            self.timers = timers
            return visible ? [] : followTimers()
        case .graceElapsed:
            guard graceRunning else { return [] }
            graceRunning = false
            guard !visible, keepingTheAppRunning.isEmpty else { return [] }
            return quit()
        case .quitRequested:
            return quit()
        }
    }

    /// A hidden app: held while a timer needs it, on its way out after the
    /// grace when none does.
    private mutating func followTimers() -> [Action] {
        var actions: [Action] = []
        if keepingTheAppRunning.isEmpty {
            if !graceRunning {
                graceRunning = true
                actions.append(.startGrace(Self.grace))
            }
        } else {
            cancelGrace(into: &actions)
            hold(into: &actions)
        }
        return actions
    }

    /// The hold, the release and the grace's end, each said only when it
    /// changes something.
    private mutating func hold(into actions: inout [Action]) {
        guard !held else { return }
        held = true
        actions.append(.hold)
    }

    private mutating func release(into actions: inout [Action]) {
        guard held else { return }
        held = false
        actions.append(.release)
    }

    private mutating func cancelGrace(into actions: inout [Action]) {
        guard graceRunning else { return }
        graceRunning = false
        actions.append(.cancelGrace)
    }

    private mutating func quit() -> [Action] {
        quitting = true
        var actions: [Action] = []
        cancelGrace(into: &actions)
        release(into: &actions)
        actions.append(.quit(sayWhatStops: !keepingTheAppRunning.isEmpty))
        return actions
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
