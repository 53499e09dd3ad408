/// Every word the desktop app shows or writes, in one place.
///
/// Each text is a whole sentence (or a whole label) with its variable parts
/// as parameters, never glued together from fragments, so that a translation
/// can put the parts in the order its language needs. Texts shown in a page
/// are plain here; the pages escape them.
public enum AppText {
    // MARK: The window

    public static let applicationName = "Dreams for Littles"
    public static let backTooltip = "Back"
    public static let reloadTooltip = "Reload"
    public static let dismissTooltip = "Dismiss"

    // MARK: Pages the app shows itself

    public static let notConfiguredTitle = "Dreams for Littles is not set up yet"
    public static func notConfiguredExplanation() -> String {
        "The app does not know where the Dreams for Littles web app is. Set its address as web-origin in the [app] group of the configuration file, then start the app again."
    }
    public static func notConfiguredFileExplanation(_ path: String) -> String {
        "The app reads the first of these files that exists; to set it for yourself only, create the first one: \(path)."
    }
    public static let notConfiguredExample = "For example:"

    public static let configurationErrorTitle = "The configuration cannot be used"
    public static func configurationErrorExplanation(_ error: String) -> String {
        "Correct this mistake in the configuration file, then start the app again: \(error)"
    }

    public static let offlineTitle = "Dreams for Littles cannot be reached"
    public static func offlineExplanation(_ origin: String) -> String {
        "The app could not connect to \(origin). Check that this computer is online; your timers keep running meanwhile."
    }
    public static func offlineRetry(seconds: Int) -> String {
        seconds == 1 ? "Trying again in 1 second." : "Trying again in \(seconds) seconds."
    }
    public static let offlineRetryNow = "Try again now"

    public static let insecureTitle = "The connection to Dreams for Littles is not secure"
    public static func insecureExplanation(_ origin: String) -> String {
        "The certificate of \(origin) could not be verified, so the app did not open it. It tries again by itself; if this lasts, ask whoever runs the server."
    }

    public static let crashedTitle = "The page stopped unexpectedly"
    public static let crashedExplanation = "The app is loading it again."

    // MARK: Notices in the window

    public static func linkRefused(_ reason: String) -> String {
        "This link cannot be opened: \(reason)"
    }
    public static let linkRefusedNotConfigured =
        "This link cannot be opened until the app knows the web app's address (web-origin)."

    // MARK: The command line

    public static let usage = """
        Usage: dreamsforlittles [--help] [LINK]

        The Dreams for Littles desktop app. It shows the web app set as
        web-origin in the [app] group of sleep-agent.conf, gives it the Sleep
        timer bridge, and opens links of the form
        dreamsforlittles://families/FAMILY/babies/BABY/track/sleep?timer=TIMER
        in the window that is already open.
        """
    public static func commandLineLinkRefused(_ link: String, _ reason: String) -> String {
        "dreamsforlittles: The link \(link) cannot be opened: \(reason)"
    }
    public static func commandLineTooManyLinks(_ count: Int) -> String {
        "dreamsforlittles: Give one link at most; \(count) were given."
    }
    public static func commandLineUnknownOption(_ option: String) -> String {
        "dreamsforlittles: Unknown option \(option).\n\(usage)"
    }

    // MARK: Why a link is refused

    public static let reasonNotTheAppsScheme = "it does not start with dreamsforlittles://."
    public static let reasonNotASleepLink =
        "it is not a link to a Sleep timer (dreamsforlittles://families/…/babies/…/track/sleep?timer=…)."
    public static func reasonNotAnIdentifier(_ part: String) -> String {
        "its \(part) is not an identifier of the form 01234567-89ab-cdef-0123-456789abcdef."
    }
    public static let partFamily = "family"
    public static let partBaby = "baby"
    public static let partTimer = "timer"
}

/// The app's log lines (on stderr, which the journal keeps). Whole sentences
/// with parameters, like the texts above; never the content of a message
/// between the page and the bridge, which can hold the family's sign-in token.
public enum AppLogText {
    public static func configuration(_ file: String) -> String { "Configuration from \(file)." }
    public static let noConfiguration = "No configuration file; web-origin is not set."
    public static func configurationError(_ error: String) -> String { "The configuration cannot be used: \(error)" }
    public static let webOriginMissing = "web-origin is not set in the [app] group; the window explains what to set."
    public static func loading(_ url: String) -> String { "Loading \(url)." }
    public static func openedLink(_ url: String) -> String { "Opened the link at \(url)." }
    public static func refusedLink(_ reason: String) -> String { "Refused a link: \(reason)" }
    public static func openingOutside(_ url: String) -> String { "Opening \(url) in the default browser: it is not part of the web app." }
    public static func refusedNavigation(_ scheme: String) -> String {
        "Refused to open a link of the scheme \(scheme): the app opens only the web app and web links."
    }
    public static func openerFailed(_ program: String, _ error: String) -> String { "Could not open a link with \(program): \(error)" }
    public static func pageFailed(_ url: String, _ error: String) -> String { "The web app could not be loaded from \(url): \(error)" }
    public static func retryIn(_ seconds: Int) -> String { "Loading the web app again in \(seconds) s." }
    public static func certificateAccepted(_ host: String) -> String {
        "The certificate of \(host) was verified with the configured ca-file; loading again."
    }
    public static func certificateRefused(_ host: String, _ why: String) -> String {
        "The certificate of \(host) could not be verified: \(why)"
    }
    public static func webProcessEnded(_ reason: String) -> String { "The page's web process ended (\(reason)); loading the page again." }
    public static let permissionDenied = "Denied a permission request of the page."
    public static func bridgeStarted(_ program: String, _ pid: String) -> String { "Started the bridge \(program) (pid \(pid))." }
    public static func bridgeCouldNotStart(_ program: String, _ error: String) -> String {
        "Could not start the bridge \(program): \(error)"
    }
    public static func bridgeEnded(_ how: String, _ delayMilliseconds: Int) -> String {
        "The bridge ended (\(how)); the page is told, and a new bridge starts in \(delayMilliseconds) ms."
    }
    public static func droppedMessage(_ reason: String) -> String { "Dropped a message from the page to the bridge: \(reason)" }
    public static func dropNotTheWebApp(_ origin: String) -> String { "the window's page (\(origin)) is not the web app." }
    public static let dropNotText = "it is not text."
    public static let dropLineBreak = "it holds a line break, which would split it in two."
    public static func dropTooLong(_ bytes: Int, _ maximum: Int) -> String {
        "it is \(bytes) bytes long; the bridge takes at most \(maximum)."
    }
    public static let dropNoBridge = "the bridge is not running; the page was told."
    public static func droppedReply(_ reason: String) -> String { "Dropped a message from the bridge to the page: \(reason)" }
    public static func windowStateNotSaved(_ path: String, _ error: String) -> String {
        "Could not save the window's size to \(path): \(error)"
    }
    public static let automationOn =
        "Automation is on (--automation): a WebDriver client on this computer may drive the window."
    public static let automationIgnored =
        "Ignored --automation: it takes effect only when the app starts, under WebKitWebDriver."
}
