import DFLDBus
import SleepTimerCore

/// Which way a deep link is opened, and where it goes when the app does
/// not take it: decided from the configuration, the link and the app's
/// answer alone, so that DeepLinkOpener only carries each step out.
enum LinkRoute: Equatable {
    /// The configured url-opener, with the link as its argument.
    case program(String, DeepLink)
    /// The app itself, through org.freedesktop.Application.
    case app(DeepLink)
    /// The desktop's way: the OpenURI portal, or xdg-open without one.
    case desktop(DeepLink, Reason)
    /// Nothing more: the bus refused to start the app (too many starts
    /// pending, or the caller's limits). That is no failure of the app, and
    /// a second program started for each refusal is what a flood wants.
    case refused(String)

    /// Why a link goes to the desktop, as the log says it.
    enum Reason: Equatable {
        /// A link of the web origin, which the browser opens.
        case webLink
        /// No app is installed: the web app in the default browser.
        case appMissing
        /// No app and no web-origin configured: the link as it is.
        case appMissingWithoutWebOrigin
        /// The app is there but failed, saying this.
        case appFailed(String)
    }

    /// The first way to try. The configured url-opener wins; a link of the
    /// app's scheme goes to the app.
    static func first(_ link: DeepLink, configuredProgram: String?) -> LinkRoute {
        if let configuredProgram { return .program(configuredProgram, link) }
        return link.base.isAppScheme ? .app(link) : .desktop(link, .webLink)
    }

    /// The way after the app did not take the link. ServiceUnknown says
    /// that nothing can own the app's name: no app is installed.
    static func afterAppFailed(_ link: DeepLink, error: BusError, webOrigin: APIOrigin?) -> LinkRoute {
        if error.name == BusError.Names.limitsExceeded { return .refused(error.message) }
        guard error.name == BusError.Names.serviceUnknown else { return .desktop(link, .appFailed(error.message)) }
        guard let webOrigin else { return .desktop(link, .appMissingWithoutWebOrigin) }
        return .desktop(link.rebased(on: DeepLinkBase(webOrigin: webOrigin)), .appMissing)
    }
}
