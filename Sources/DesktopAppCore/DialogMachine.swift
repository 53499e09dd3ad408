import SleepTimerCore

/// What a page may open beyond its own pixels: WebKit's print dialog, its
/// file chooser and its authentication dialog are windows of their own (or
/// prompts in the window), and a frame of another origin, or any page of
/// the hidden app, must not raise one without a person there to want it.
public enum PageDialog: String, Sendable, CaseIterable {
    case print = "a print dialog"
    case fileChooser = "a file chooser"
    case authentication = "an authentication dialog"
    /// alert(), confirm(), prompt() and the leave-page question: WebKit
    /// draws them inside the window, over the page.
    case scriptDialog = "a script dialog"
    /// Camera, location, notifications and the like.
    case permission = "a permission"
}

/// Whether a page's dialog is shown, and the log line for a refusal (one
/// per dialog, origin and minute). WebKitGTK names the asking frame's
/// origin for an authentication only; for a print or a file chooser it
/// does not say which frame asked, so these need a person's click in the
/// web app's own page, the top frame, just before (the app's script in that
/// frame reports trusted clicks; a frame's clicks never reach it).
///
/// - A permission is always refused: the web app needs none.
/// - While the window is hidden, every dialog is refused.
/// - A frame of another origin is refused, where WebKit names it.
/// - A print or a file chooser comes only after a person's click in the web
///   app's top frame, within `personLifetime`; one click, one dialog.
/// - A script dialog in the shown window is WebKit's own, drawn over the page.
/// - Without a web app (the app's own pages), every dialog is refused.
public struct DialogMachine: Sendable {
    public struct Settings: Sendable, Equatable {
        /// How long a person's click in the top frame vouches for a dialog:
        /// WebKit asks at once, so this only bounds a click whose page
        /// asked for nothing.
        public var personLifetime: Duration

        public init(personLifetime: Duration = .seconds(2)) {
            self.personLifetime = personLifetime
        }
    }

    public let rule: NavigationRule?
    public let settings: Settings

    public struct State: Sendable, Equatable {
        /// When a person last clicked in the web app's top frame, until a
        /// dialog uses the click up.
        public var personActed: MonotonicInstant?
        /// Which refusals were logged lately.
        public var logged: LogBudgetMachine<MonotonicInstant> = .pageRefusals()
    }

    private(set) var state = State()

    public init(rule: NavigationRule?, settings: Settings = Settings()) {
        self.rule = rule
        self.settings = settings
    }

    public enum Refusal: Sendable, Equatable {
        case noneNeeded
        case windowHidden
        case otherOrigin
        case noPerson
        case noWebApp
    }

    /// The app's script in the top frame of the web app saw a person click.
    public mutating func personClickedInTopFrame(at now: MonotonicInstant) {
        state.personActed = now
    }

    public enum DialogAskedAction: Sendable, Equatable {
        /// WebKit may show it.
        case show
        /// Refuse it; `log` is the line to write, nil within the quiet time.
        case refuse(Refusal, log: String?)
    }

    /// A page asks for `dialog`. `origin` is the asking frame's origin
    /// where WebKit names it, else nil.
    public mutating func dialogAsked(_ dialog: PageDialog, origin: String?, windowShown: Bool, at now: MonotonicInstant) -> DialogAskedAction {
        let source = origin.flatMap(WebURL.init)?.source ?? origin.map { _ in "?" }
        let refusal: Refusal?
        if dialog == .permission {
            refusal = .noneNeeded
        } else if let rule {
            if !windowShown {
                refusal = .windowHidden
            } else if origin != nil && !rule.isWebApp(origin) {
                refusal = .otherOrigin
            } else if dialog == .print || dialog == .fileChooser {
                if let acted = state.personActed, now >= acted, now.duration(since: acted) <= settings.personLifetime {
                    state.personActed = nil
                    refusal = nil
                } else {
                    refusal = .noPerson
                }
            } else {
                refusal = nil
            }
        } else {
            refusal = .noWebApp
        }
        guard let refusal else { return .show }
        let key = "\(dialog.rawValue) \(source ?? "")"
        return .refuse(refusal, log: state.logged.line(AppLogText.refusedDialog(dialog, source: source, refusal), for: key, at: now))
    }
}
