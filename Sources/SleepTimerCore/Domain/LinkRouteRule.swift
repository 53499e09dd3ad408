/// Which way a link is opened, for the agent's link opener and the app's
/// opener of outside links alike: the configured program, the app, or the
/// desktop; and on the desktop, the OpenURI portal or `xdg-open`. Decided
/// here from what the shells saw (the configuration, the link, the app's
/// answer, whether the portal is on the bus), so that both openers only
/// carry each way out and cannot drift apart.
public enum LinkRouteRule {
    /// The desktop's own opener, started with an argument vector (never a
    /// shell) where there is no portal or the portal failed.
    public static let desktopOpener = "xdg-open"

    /// The first way to try for one of the agent's deep links.
    public enum FirstWay: Equatable, Sendable {
        /// The configured url-opener, with the link as its argument.
        case program(String, DeepLink)
        /// The app itself, through org.freedesktop.Application.
        case app(DeepLink)
        /// The desktop: a link of the web origin, which the browser opens.
        case desktop(DeepLink)
    }

    /// The configured url-opener wins; a link of the app's scheme goes to
    /// the app, any other to the desktop.
    public static func firstWay(for link: DeepLink, configuredProgram: String?) -> FirstWay {
        if let configuredProgram { return .program(configuredProgram, link) }
        return link.base.isAppScheme ? .app(link) : .desktop(link)
    }

    /// How the app did not take a link, as the shell read the bus's answer.
    public enum AppFailure: Equatable, Sendable {
        /// Nothing can own the app's name: no app is installed.
        case notInstalled
        /// The bus refused to start the app (too many starts pending, or
        /// the caller's limits), saying this.
        case refusedByBus(String)
        /// The app is there but failed, saying this.
        case failed(String)
    }

    /// Where a link goes after the app did not take it.
    public enum AfterAppFailed: Equatable, Sendable {
        /// Nothing more: a refusal of the bus is no failure of the app, and
        /// a second program started for each refusal is what a flood wants.
        case refused(String)
        /// The desktop, with this link, for this reason (as the log says it).
        case desktop(DeepLink, DesktopReason)
    }

    /// Why a link the app did not take goes to the desktop.
    public enum DesktopReason: Equatable, Sendable {
        /// No app is installed: the web app in the default browser.
        case appMissing
        /// The app is there but failed, saying this.
        case appFailed(String)
    }

    /// Without the app, the same route opens on the web app's origin; an
    /// app that failed leaves the link as it is to the desktop.
    public static func afterAppFailed(_ link: DeepLink, failure: AppFailure, webOrigin: APIOrigin) -> AfterAppFailed {
        switch failure {
        case .refusedByBus(let message):
            return .refused(message)
        case .failed(let message):
            return .desktop(link, .appFailed(message))
        case .notInstalled:
            return .desktop(link.rebased(on: DeepLinkBase(webOrigin: webOrigin)), .appMissing)
        }
    }

    /// One of the desktop's ways to open a link.
    public enum DesktopWay: Equatable, Sendable {
        /// org.freedesktop.portal.OpenURI, which works inside a sandbox too.
        case portal
        /// `desktopOpener`.
        case xdgOpen
    }

    /// The desktop's ways, to be tried in turn until one takes the link:
    /// the portal first when it is on the bus (a failed portal leaves
    /// `xdg-open`), else `xdg-open` alone.
    public static func desktopWays(portalOnBus: Bool) -> [DesktopWay] {
        portalOnBus ? [.portal, .xdgOpen] : [.xdgOpen]
    }
}
