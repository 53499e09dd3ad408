import SleepTimerCore
import SleepTimersAPI

/// Every word the desktop app shows, in one place, in the reader's
/// language.
///
/// Each text is a whole sentence (or a whole label) looked up with `tr`,
/// `trn` or `trc`, its variable parts named placeholders filled after the
/// translation, so that a translation puts them in the order its language
/// needs. Texts shown in a page are plain here; the pages escape them, the
/// translation included (a catalog is text from outside the program). The
/// log's lines are AppLogText's, and stay English.
public enum AppText {
    // MARK: The window

    /// The app's name, a brand: the same in every language.
    public static let applicationName = AppIdentity.name

    // TRANSLATORS: Tooltip of the window's button that goes back one page.
    public static var backTooltip: String { trc("tooltip", "Back") }
    // TRANSLATORS: Tooltip of the window's button that loads the page again.
    public static var reloadTooltip: String { trc("tooltip", "Reload") }
    // TRANSLATORS: Tooltip of the button that closes a notice at the top of the window.
    public static var dismissTooltip: String { trc("tooltip", "Dismiss") }

    // MARK: Pages the app shows itself

    // TRANSLATORS: Title of the page the app shows when its configuration file has a mistake.
    public static var configurationErrorTitle: String { tr("The configuration cannot be used") }
    public static func configurationErrorExplanation(error: String) -> String {
        // TRANSLATORS: {error} names the file, the line and the mistake, in English.
        tr("Correct this mistake in the configuration file, then start the app again: {error}").filling(["error": error])
    }

    // TRANSLATORS: Title of the page the app shows while the web app cannot be reached.
    public static var offlineTitle: String { tr("Dreams for Littles cannot be reached") }
    public static func offlineExplanation(origin: String) -> String {
        // TRANSLATORS: {origin} is the web app's address, such as https://app.dreamsforlittles.example.
        tr("The app could not connect to {origin}. Check that this computer is online; your timers keep running meanwhile.").filling(["origin": origin])
    }
    public static func offlineRetry(seconds: Int) -> String {
        // TRANSLATORS: The app loads the web app again by itself after this many seconds.
        trn("Trying again in {count} second.", "Trying again in {count} seconds.", count: seconds).filling(["count": String(seconds)])
    }
    // TRANSLATORS: A link on the offline page that loads the web app at once.
    public static var offlineRetryNow: String { tr("Try again now") }

    // TRANSLATORS: Title of the page the app shows when the server's certificate cannot be verified.
    public static var insecureTitle: String { tr("The connection to Dreams for Littles is not secure") }
    public static func insecureExplanation(origin: String) -> String {
        // TRANSLATORS: {origin} is the web app's address, such as https://app.dreamsforlittles.example.
        tr("The certificate of {origin} could not be verified, so the app did not open it. It tries again by itself; if this lasts, ask whoever runs the server.").filling(["origin": origin])
    }

    // TRANSLATORS: Title of the page shown for a moment when the web page has crashed.
    public static var crashedTitle: String { tr("The page stopped unexpectedly") }
    public static var crashedExplanation: String { tr("The app is loading it again.") }

    // MARK: Notices in the window

    /// A link the app was given, refused: shown in a bar at the top of the
    /// window.
    public static func linkRefused(_ refusal: AppDeepLink.Refusal) -> String {
        // TRANSLATORS: A notice at the top of the window; {reason} is one of the
        // sentences that say why a link is refused ("The link does not start with …").
        tr("This link cannot be opened. {reason}").filling(["reason": refusal.reason])
    }
    public static var websiteDataNotKept: String {
        // TRANSLATORS: A notice at the top of the window; the log names the folder and why.
        tr("Your sign-in is not kept this time: a folder where the app keeps it is not private. The log says which folder and why.")
    }
    // TRANSLATORS: A check item of the window's menu: whether the program that puts sleep timers on the desktop starts when the person logs in.
    public static var startAtLoginMenuItem: String { trc("menu", "Start at login") }
    public static var startAtLoginNotChanged: String {
        // TRANSLATORS: A notice at the top of the window after the menu's Start at login item was chosen.
        tr("Start at login could not be changed. The log says why.")
    }
    public static var linkRefusedConfigurationUnusable: String {
        // TRANSLATORS: A notice at the top of the window; the page below it names the mistake.
        tr("This link cannot be opened until the mistake in the configuration file is corrected.")
    }

    // MARK: Running in the background

    /// Said once, the first time the window closes while a Sleep is
    /// mirrored: the app stays, and how to quit it.
    public static func keepsRunning(babyNames: [String]) -> String {
        if babyNames.count == 1 {
            // TRANSLATORS: A desktop notification when the window is closed; {name} is a baby's name. Ctrl+Q as keyboards in your language label it.
            return tr("Dreams for Littles keeps running while {name}'s sleep is on the desktop; quit from the panel or with Ctrl+Q").filling(["name": babyNames[0]])
        }
        // TRANSLATORS: A desktop notification when the window is closed; {count} is 2 or more. Ctrl+Q as keyboards in your language label it.
        return trn("Dreams for Littles keeps running while {count} sleep is on the desktop; quit from the panel or with Ctrl+Q", "Dreams for Littles keeps running while {count} sleeps are on the desktop; quit from the panel or with Ctrl+Q", count: babyNames.count).filling(["count": String(babyNames.count)])
    }
    // TRANSLATORS: A desktop notification when the app is quit while a Sleep is still on the desktop.
    public static var quitStops: String { tr("Dreams for Littles has quit: the sleep's Complete button is no longer renewed, and changes from other devices no longer reach the desktop.") }
    // TRANSLATORS: A desktop notification that replaces a Sleep's notification whose Complete was pressed after the Sleep had ended (saved, stopped on another device, or after a sign-out).
    public static var sleepAlreadyEnded: String { tr("This Sleep has already ended. Nothing was changed; open the app to see your sleeps.") }
    // TRANSLATORS: An item of the window's menu: clears the web app's sign-in and everything it keeps on this computer.
    public static var signOutMenuItem: String { trc("menu", "Sign out") }
    // TRANSLATORS: An item of the window's menu that ends the app, even while a Sleep runs.
    public static var quitMenuItem: String { trc("menu", "Quit") }
    // TRANSLATORS: Tooltip of the window's menu button.
    public static var menuTooltip: String { trc("tooltip", "Menu") }

    // MARK: The command line

    static let paragraphWidth = 72

    /// `dreamsforlittles --help`, in the reader's language.
    public static var usage: String {
        [
            // TRANSLATORS: The first line of --help; {synopsis} is the command
            // line as typed ("dfl-sleepctl COMMAND [OPTIONS]").
            tr("Usage: {synopsis}").filling(["synopsis": "dreamsforlittles [--help] [LINK]"]),
            "",
            // TRANSLATORS: dreamsforlittles --help. Keep web-origin, [app] and sleep-agent.conf as they are.
            TextLayout.wrap(tr("The Dreams for Littles desktop app. It shows the Dreams for Littles web app (another one when web-origin is set in the [app] group of sleep-agent.conf), and gives it the Sleep timer bridge."), width: paragraphWidth),
            "",
            // TRANSLATORS: dreamsforlittles --help, followed by the form of a link. Keep LINK as it is.
            TextLayout.wrap(tr("A LINK opens its Sleep timer in the window that is already open. Its form is:"), width: paragraphWidth),
            "  dreamsforlittles://families/FAMILY/babies/BABY/track/sleep?timer=TIMER",
        ].joined(separator: "\n")
    }
    public static func commandLineLinkRefused(_ link: String, _ refusal: AppDeepLink.Refusal) -> String {
        // TRANSLATORS: On the terminal; {link} is the link as given, {reason} one of the
        // sentences that say why a link is refused ("The link does not start with …").
        tr("dreamsforlittles: The link {link} cannot be opened. {reason}").filling(["link": link, "reason": refusal.reason])
    }
    public static func commandLineTooManyLinks(_ count: Int) -> String {
        // TRANSLATORS: On the terminal; {count} is 2 or more.
        trn("dreamsforlittles: Give one link at most; {count} was given.", "dreamsforlittles: Give one link at most; {count} were given.", count: count).filling(["count": String(count)])
    }
    public static func commandLineUnknownOption(_ option: String) -> String {
        // TRANSLATORS: On the terminal, before the --help text; {option} is the option as typed.
        tr("dreamsforlittles: Unknown option {option}.").filling(["option": option]) + "\n" + usage
    }

    // MARK: Why a link is refused

    // TRANSLATORS: Why a link is refused; it follows "This link cannot be opened."
    static var reasonNotTheAppsScheme: String { tr("The link does not start with dreamsforlittles://.") }
    static var reasonNotASleepLink: String {
        // TRANSLATORS: Why a link is refused; it follows "This link cannot be opened."
        tr("The link does not lead to a Sleep timer (dreamsforlittles://families/…/babies/…/track/sleep?timer=…).")
    }
    static var reasonFamilyNotAnIdentifier: String {
        // TRANSLATORS: Why a link is refused; it follows "This link cannot be opened."
        tr("The family's id in the link is not of the form 01234567-89ab-cdef-0123-456789abcdef.")
    }
    static var reasonBabyNotAnIdentifier: String {
        // TRANSLATORS: Why a link is refused; it follows "This link cannot be opened."
        tr("The baby's id in the link is not of the form 01234567-89ab-cdef-0123-456789abcdef.")
    }
    static var reasonTimerNotAnIdentifier: String {
        // TRANSLATORS: Why a link is refused; it follows "This link cannot be opened."
        tr("The timer's id in the link is not of the form 01234567-89ab-cdef-0123-456789abcdef.")
    }
}

/// The app's log lines (on stderr, which the journal keeps). Whole sentences
/// with parameters, like the texts above; never the content of a message
/// between the page and the bridge, which can hold the family's sign-in token.
public enum AppLogText {
    public static func configuration(_ file: String) -> String { "Configuration from \(file)." }
    public static let noConfiguration = "No configuration file; every setting has its default, the web app \(ProductOrigins.webApp) among them."
    public static let localeMissing = "The locale the environment names (LANG, LC_ALL, LC_*) is not installed (locale -a lists "
        + "those that are); the window speaks English."
    public static func configurationError(_ error: String) -> String { "The configuration cannot be used: \(error)" }
    public static func loading(_ url: String) -> String { "Loading \(url)." }
    public static func openedLink(_ url: String) -> String { "Opened the link at \(url)." }
    public static func refusedLink(_ refusal: AppDeepLink.Refusal) -> String {
        switch refusal {
        case .notTheAppsScheme: return "Refused a link: it does not start with dreamsforlittles://."
        case .notASleepLink: return "Refused a link: it is not a link to a Sleep timer."
        case .notAnIdentifier(.family): return "Refused a link: its family id is not a UUID."
        case .notAnIdentifier(.baby): return "Refused a link: its baby id is not a UUID."
        case .notAnIdentifier(.timer): return "Refused a link: its timer id is not a UUID."
        }
    }
    /// A call of the app's Open, an action or the command line refused for
    /// coming more often than the bound (the agent's for its Open).
    public static func refusedTooOften(_ wayIn: String) -> String {
        "Refused a call of \(wayIn): more than a few at once and then one a second were asked for; nothing was done."
    }
    /// After a refusal's line: how many refusals it stands for, when more
    /// than one (LogBudgetMachine's count).
    public static func refusalCount(_ count: Int) -> String {
        count == 1 ? "" : " (\(count) refusals of this kind of call since the last such line; one line a minute is written.)"
    }
    /// After the line of a page's refusal: how often it was refused since
    /// its last line, when more than once.
    public static func timesSinceLastLine(_ count: Int) -> String {
        count == 1 ? "" : " (Refused \(count) times since this was last logged.)"
    }
    public static let refusedLinkConfigurationUnusable = "Refused a link: the configuration cannot be used, so the app shows no web app."
    public static func openingOutside(_ url: String) -> String { "Opening \(url) in the default browser: it is not part of the web app." }
    public static func refusedNavigation(_ source: String) -> String {
        "Refused to open a link of the scheme \(source) the app opens only the web app and web links."
    }
    public static func refusedWithoutClick(_ source: String) -> String {
        "Refused to leave the app for \(source): only a person's click on a link in the web app's own page "
            + "opens another site or program, not a frame, a script or a redirect. Further refusals for it are not "
            + "logged for a minute."
    }
    public static func refusedDownload(_ source: String) -> String {
        "Refused and cancelled a download from \(source): the app saves no files. Further downloads from it are "
            + "not logged for a minute."
    }
    public static func noticeRefused(_ error: String) -> String { "The notification portal did not take the app's notice: \(error)" }
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
    public static func refusedDialog(_ dialog: PageDialog, source: String?, _ refusal: DialogMachine.Refusal) -> String {
        let from = source.map { " from \($0)" } ?? ""
        let why: String
        switch refusal {
        case .noneNeeded: why = "the web app needs no permission"
        case .windowHidden: why = "the window is hidden"
        case .otherOrigin: why = "only the web app's own page may ask"
        case .noPerson: why = "no person clicked in the web app's page just before (WebKit does not say which frame asked)"
        case .noWebApp: why = "no web app is shown"
        }
        return "Refused \(dialog.rawValue)\(from): \(why). Further refusals of it are not logged for a minute."
    }
    public static let signingOut = "Signing out (the menu): the bridge forgets the session and purges its timers; clearing "
        + "all website data."
    public static let signedOut = "Signed out: all website data is cleared; loading the web app's start."
    public static func signOutFailed(_ error: String) -> String {
        "Could not clear the website data to sign out: \(error); loading the web app's start all the same."
    }
    public static func websiteDataInMemory(_ why: String) -> String {
        "The web app's website data is kept in memory only this run, so its sign-in is not kept: \(why)"
    }
    public static func startAtLoginChosen(_ on: Bool) -> String {
        on ? "Start at login turned on: the agent starts when the person logs in."
            : "Start at login turned off: the agent runs only while the app or a call starts it."
    }
    public static func startAtLoginNotChanged(_ on: Bool, _ why: String) -> String {
        "Could not turn start at login \(on ? "on" : "off"): \(why)"
    }
    public static func stateFolderNotPrivate(_ why: String) -> String {
        "The app's state folder is not private; the window's size is still written 0600: \(why)"
    }
    public static func bridgeStarted(_ program: String, _ pid: String) -> String { "Started the bridge \(program) (pid \(pid))." }
    public static func bridgeCouldNotStart(_ program: String, _ error: String) -> String {
        "Could not start the bridge \(program): \(error)"
    }
    public static func bridgeEnded(_ how: String, _ delay: Duration) -> String {
        "The bridge ended (\(how)); the page is told, and a new bridge starts in \(delay.wholeMilliseconds) ms."
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
    public static let keepsRunning = "The window is hidden: a Sleep is mirrored on the desktop, so the app keeps running."
    public static let startedInBackground = "Started in the background (the background action): the window stays hidden."
    public static func graceStarted(_ seconds: Int) -> String {
        "No mirrored timer needs the hidden app; it quits in \(seconds) s unless one comes."
    }
    public static func quitting(_ why: String) -> String { "Quitting: \(why)." }
    public static func timersUnknown(_ error: String) -> String { "Could not list the agent's timers: \(error)" }
    public static let automationOn =
        "Automation is on (--automation): a WebDriver client on this computer may drive the window."
    public static let automationIgnored =
        "Ignored --automation: it takes effect only when the app starts, under WebKitWebDriver."

    // The notification's actions (TimerActionRule): the timer's id, never its token.
    public static func refusedTimerAction(_ action: String, _ refusal: TimerActionRule.Refusal) -> String {
        switch refusal {
        case .noTimerID: return "Refused the \(action) action: it names no timer (its target must be a timer's id)."
        case .notATimerID: return "Refused the \(action) action: its target is not a timer's id (a UUID); nothing was changed."
        }
    }
    public static func completing(_ timerID: TimerID, _ busName: String) -> String {
        "Completing timer \(timerID) from the notification: asking the agent at \(busName)."
    }
    public static func completeOutcome(_ timerID: TimerID, _ outcome: TimerActionRule.CompleteOutcome) -> String {
        switch outcome {
        case .queued: return "The agent recorded the completion of timer \(timerID) and sends it."
        case .alreadyCompleting:
            return "The agent already holds the completion of timer \(timerID), or it must be finished in the app: "
                + "nothing is sent again."
        case .notMirrored: return "Timer \(timerID) is no longer mirrored by the agent (saved or stopped already)."
        case .failed(let why): return "Could not complete timer \(timerID) through the agent: \(why)"
        }
    }
    public static func openingTimer(_ timerID: TimerID) -> String { "Opening timer \(timerID) from the notification." }
    public static func timerNotListed(_ timerID: TimerID) -> String {
        "Timer \(timerID) has no link in the agent's list; the window stays on the web app's start."
    }

    // The agent kept alive in the sandbox (SandboxAgentMachine).
    public static func startingAgent(_ busName: String, _ why: SandboxAgentMachine.StartReason) -> String {
        switch why {
        case .appStarted: return "Starting the agent by D-Bus activation of \(busName)."
        case .agentVanished:
            return "The agent left the bus while timers were mirrored; starting it again by D-Bus activation of \(busName)."
        }
    }
    public static func agentStarted(_ busName: String, _ result: UInt32) -> String {
        result == 2 ? "The agent at \(busName) was already running." : "The agent at \(busName) was started."
    }
    public static func agentNotStarted(_ busName: String, _ error: String) -> String {
        "Could not start the agent at \(busName): \(error)"
    }
    public static let requestingBackground = "Asking the Background portal to start the agent at login."
    public static func sandboxReport(_ report: SandboxAgentMachine.Report) -> String {
        switch report {
        case .autostartOn: return "The Background portal starts the agent at login."
        case .autostartNotWritten: return "The Background portal allows running in the background but wrote no autostart entry."
        case .autostartOff:
            return "Start at login is off, as chosen: the Background portal keeps no autostart entry for the agent."
        case .backgroundRefused:
            return "Running in the background is not allowed (the desktop's settings say so): the agent is started "
                + "with the app only."
        case .portalUnavailable(let why): return "The Background portal could not be asked: \(why)"
        case .restartLimitReached(let count):
            return "The agent left the bus again after \(count) restarts; it is not started again until the app starts again."
        }
    }
}
