import SleepTimerCore

/// The parts of a URL the app's decisions need: its scheme and, for http
/// and https, its origin. WebKit hands over URLs it has already parsed and
/// serialised, but they are read strictly anyway: what cannot be read is
/// treated as foreign.
public struct WebURL: Sendable, Equatable {
    public let scheme: String
    /// The origin, for http and https URLs whose authority is a plain host
    /// and port; nil otherwise (user info, a malformed authority, another
    /// scheme).
    public let origin: APIOrigin?

    public init?(_ text: String) {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let scheme = text[..<colon].lowercased()
        guard let first = scheme.unicodeScalars.first, ("a"..."z").contains(first),
            scheme.unicodeScalars.allSatisfy({
                ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "+" || $0 == "-" || $0 == "."
            })
        else { return nil }
        self.scheme = scheme
        guard scheme == "https" || scheme == "http", text[colon...].hasPrefix("://") else {
            origin = nil
            return
        }
        let afterSlashes = text[text.index(colon, offsetBy: 3)...]
        let authority = afterSlashes.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        // APIOrigin refuses user info and anything but a host and port; a
        // plain-http origin off loopback is refused too, and is then simply
        // not the web app's.
        origin = try? APIOrigin(parsing: "\(scheme)://\(authority)")
    }

    /// What a log line may say of where the URL leads: its origin, else its
    /// scheme; never a path, a query or a mail address.
    public var source: String { origin?.description ?? "\(scheme):" }
}

/// A navigation the app turns away, and what its log line may name.
public struct Refusal: Sendable, Equatable {
    public enum Reason: Sendable, Equatable {
        /// Neither in the window nor outside: file:, an unknown scheme.
        case scheme
        /// It would leave the app, but no person's click on it in the top
        /// frame led there: a frame's navigation, a script's, a redirect.
        case withoutClick
    }

    public let reason: Reason
    /// The origin, or the scheme (`WebURL.source`).
    public let source: String

    public init(_ reason: Reason, source: String) {
        self.reason = reason
        self.source = source
    }
}

/// When WebKit asks. WebKitGTK asks about every frame's navigation without
/// saying which frame it is for; only the main frame's response is known to
/// be about the window's page. Whether a person clicked the link in the top
/// frame is told by the app's own script there (`TopFrameClicks`).
public enum NavigationMoment: Sendable, Equatable {
    /// Before a navigation of the page or of one of its frames; whether
    /// WebKit saw a user gesture.
    case navigation(userGesture: Bool)
    /// Before a new window would open (target=_blank, window.open).
    case newWindow(userGesture: Bool)
    /// The response of the window's page itself, before it is shown.
    case mainFrameResponse
}

/// Only the web app's origin shows in the window. Something else leaves the
/// app (the default browser, the mail program) only when a person clicked
/// that very link in the web app's page, the top frame: a frame's
/// navigation never leaves, nor does a script's or a redirect's. Frames
/// inside the web app's page may come from other origins: they cannot reach
/// the bridge, whose scripts run in the top frame only.
public struct NavigationRule: Sendable {
    public let webOrigin: APIOrigin

    public init(webOrigin: APIOrigin) { self.webOrigin = webOrigin }

    /// What the app does with a navigation the web view asks about.
    public enum Decision: Sendable, Equatable {
        /// Let WebKit load it where it was going.
        case load
        /// Load it in the window instead of a new one.
        case loadInWindow(String)
        /// Not in the window: hand it to the desktop (the default browser, or
        /// the mail program for mailto:), once.
        case openOutside(String)
        /// The app's own link: open that route in the window instead.
        case openLink(AppDeepLink)
        /// Neither in the window nor outside; the log names the origin or scheme.
        case refuse(Refusal)
    }

    /// Schemes handed to the desktop when the web app links to them.
    static let outsideSchemes: Set<String> = ["https", "http", "mailto"]
    /// Documents without an origin of their own, which frames use.
    static let frameSchemes: Set<String> = ["about", "data", "blob"]

    /// What to do with a navigation to `url` WebKit asks about at `moment`.
    /// `clickedInTopFrame`: a person's click on this link in the top frame
    /// led here (and was not used for another launch yet).
    public func decision(for url: String, at moment: NavigationMoment, clickedInTopFrame: Bool = false) -> Decision {
        guard let parsed = WebURL(url) else { return .refuse(Refusal(.scheme, source: "?")) }
        if parsed.origin == webOrigin {
            if case .newWindow = moment { return .loadInWindow(url) }
            return .load
        }
        if parsed.scheme == AppDeepLink.scheme {
            guard let link = try? AppDeepLink(parsing: url) else { return .refuse(Refusal(.scheme, source: parsed.source)) }
            return .openLink(link)
        }
        let leaves = Self.outsideSchemes.contains(parsed.scheme)
        switch moment {
        case .navigation(let userGesture):
            if Self.frameSchemes.contains(parsed.scheme) { return .load }
            guard leaves else { return .refuse(Refusal(.scheme, source: parsed.source)) }
            if userGesture && clickedInTopFrame { return .openOutside(url) }
            // A frame may show another origin; the page itself is stopped
            // at its response. A mailto: has no response: it stops here.
            if parsed.scheme != "mailto" { return .load }
            return .refuse(Refusal(.withoutClick, source: parsed.source))
        case .newWindow(let userGesture):
            guard leaves else { return .refuse(Refusal(.scheme, source: parsed.source)) }
            if userGesture && clickedInTopFrame { return .openOutside(url) }
            return .refuse(Refusal(.withoutClick, source: parsed.source))
        case .mainFrameResponse:
            if url == "about:blank" { return .load }
            guard leaves else { return .refuse(Refusal(.scheme, source: parsed.source)) }
            // A click that leaves was handed out at its navigation: this is
            // a script's navigation, a frame's of the top, or a redirect.
            return .refuse(Refusal(.withoutClick, source: parsed.source))
        }
    }

    /// Whether a page at `url` is the web app, and so may use the bridge.
    public func isWebApp(_ url: String?) -> Bool {
        guard let url, let parsed = WebURL(url) else { return false }
        return parsed.origin == webOrigin
    }
}
