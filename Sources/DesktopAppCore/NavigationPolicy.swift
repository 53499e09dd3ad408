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
}

/// What the app does with a navigation the web view asks about.
public enum NavigationDecision: Sendable, Equatable {
    /// Let WebKit load it where it was going.
    case load
    /// Load it in the window instead of a new one.
    case loadInWindow(String)
    /// Not in the window: hand it to the desktop (the default browser, or
    /// the mail program for mailto:).
    case openOutside(String)
    /// The app's own link: open that route in the window instead.
    case openLink(AppDeepLink)
    /// Neither in the window nor outside (file:, an unknown scheme): the
    /// scheme is named in the log.
    case refuse(scheme: String)
}

/// When WebKit asks. WebKitGTK asks about every frame's navigation without
/// saying which frame it is for; only a new window and the main frame's
/// response are known to be about the window's page.
public enum NavigationMoment: Sendable, Equatable {
    /// Before a navigation of the page or of one of its frames; whether a
    /// person clicked or submitted something.
    case navigation(userGesture: Bool)
    /// Before a new window would open (target=_blank, window.open).
    case newWindow
    /// The response of the window's page itself, before it is shown.
    case mainFrameResponse
}

/// Only the web app's origin shows in the window; anything else a person
/// opens from it goes to the default browser. Frames inside the web app's
/// page may come from other origins: they cannot reach the bridge, whose
/// scripts run in the top frame only.
public struct NavigationPolicy: Sendable {
    public let webOrigin: APIOrigin

    public init(webOrigin: APIOrigin) { self.webOrigin = webOrigin }

    /// Schemes handed to the desktop when the web app links to them.
    static let outsideSchemes: Set<String> = ["https", "http", "mailto"]
    /// Documents without an origin of their own, which frames use.
    static let frameSchemes: Set<String> = ["about", "data", "blob"]

    public func decide(_ url: String, at moment: NavigationMoment) -> NavigationDecision {
        guard let parsed = WebURL(url) else { return .refuse(scheme: "?") }
        if parsed.origin == webOrigin {
            return moment == .newWindow ? .loadInWindow(url) : .load
        }
        if parsed.scheme == AppDeepLink.scheme {
            guard let link = try? AppDeepLink(parsing: url) else { return .refuse(scheme: parsed.scheme) }
            return .openLink(link)
        }
        switch moment {
        case .navigation(let userGesture):
            if Self.frameSchemes.contains(parsed.scheme) { return .load }
            guard Self.outsideSchemes.contains(parsed.scheme) else { return .refuse(scheme: parsed.scheme) }
            // A click leaves the app; anything else may be a frame of the
            // page, and is stopped at its response if it is the page itself.
            if userGesture || parsed.scheme == "mailto" { return .openOutside(url) }
            return .load
        case .newWindow:
            guard Self.outsideSchemes.contains(parsed.scheme) else { return .refuse(scheme: parsed.scheme) }
            return .openOutside(url)
        case .mainFrameResponse:
            if url == "about:blank" { return .load }
            guard Self.outsideSchemes.contains(parsed.scheme) else { return .refuse(scheme: parsed.scheme) }
            return .openOutside(url)
        }
    }

    /// Whether a page at `url` is the web app, and so may use the bridge.
    public func isWebApp(_ url: String?) -> Bool {
        guard let url, let parsed = WebURL(url) else { return false }
        return parsed.origin == webOrigin
    }
}
