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
public struct DialogGuard: Sendable {
    public let policy: NavigationPolicy?
    /// How long a person's click in the top frame vouches for a dialog:
    /// WebKit asks at once, so this only bounds a click whose page asked
    /// for nothing.
    public static let personLifetime: Duration = .seconds(2)

    private var personActed: Int64?
    private var logged = RefusalLog()

    public init(policy: NavigationPolicy?) {
        self.policy = policy
    }

    public enum Refusal: Sendable, Equatable {
        case noneNeeded
        case windowHidden
        case otherOrigin
        case noPerson
        case noWebApp
    }

    public struct Verdict: Sendable, Equatable {
        /// nil: WebKit may show it.
        public let refusal: Refusal?
        public let log: String?
        public var allowed: Bool { refusal == nil }
    }

    /// The app's script in the top frame of the web app saw a person click.
    public mutating func personClickedInTopFrame(at now: Int64) {
        personActed = now
    }

    /// Whether `dialog` may be shown. `origin` is the asking frame's origin
    /// where WebKit names it, else nil.
    public mutating func decide(_ dialog: PageDialog, origin: String?, windowShown: Bool, now: Int64) -> Verdict {
        let source = origin.flatMap(WebURL.init)?.source ?? origin.map { _ in "?" }
        let refusal: Refusal?
        if dialog == .permission {
            refusal = .noneNeeded
        } else if let policy {
            if !windowShown {
                refusal = .windowHidden
            } else if origin != nil && !policy.isWebApp(origin) {
                refusal = .otherOrigin
            } else if dialog == .print || dialog == .fileChooser {
                if let acted = personActed, now - acted >= 0, now - acted <= Self.personLifetime.wholeMilliseconds {
                    personActed = nil
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
        guard let refusal else { return Verdict(refusal: nil, log: nil) }
        let key = "\(dialog.rawValue) \(source ?? "")"
        let line = logged.shouldLog(key, now: now) ? AppLogText.refusedDialog(dialog, source: source, refusal) : nil
        return Verdict(refusal: refusal, log: line)
    }
}
