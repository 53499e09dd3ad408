import CDFLWebKitGTK
import DesktopAppCore
import Glibc
import GLibParsing
import SleepTimerCore
import SleepTimersAPI

/// The dreamsforlittles process: one GtkApplication, com.dreamsforlittles.DreamsForLittles,
/// unique on the session bus. A second launch (a link from `xdg-open`, the
/// command line) hands its arguments to the running instance and exits; the
/// desktop portal, the agent's opener and D-Bus activation call
/// org.freedesktop.Application.Open (or Activate) on it. There is one
/// window, whichever way the app was reached; the activation token of the
/// launch comes as platform data, and GTK uses it when the window is
/// presented. While the agent mirrors a Sleep, closing the window hides it
/// and the app runs on (DesktopApplication+Background.swift).
///
/// Used on the GTK main thread only, as all of the app's GTK and WebKit
/// objects.
public final class DesktopApplication {
    public static let applicationID = AppIdentity.appID

    let application: UnsafeMutablePointer<GtkApplication>
    let environment: [String: String]
    let paths: AppPaths
    let executable: String
    /// The configuration as read at startup, and whether WebDriver may
    /// drive the window (AppSetupMachine).
    var setup = AppSetupMachine()
    var window: AppWindow?
    /// Whether the app stays with its window closed (see BackgroundMachine).
    var background = BackgroundMachine()
    /// When a refused link or action is logged (see logRefusal).
    var refusalLog = LogBudgetMachine<Instant>(settings: .refusals)
    /// How often each way in (Open, an action, the command line) may make
    /// the app do something, and all of them together (see admit).
    var wayInLimit = CallerRateLimitMachine(settings: .opens)
    var timersWatch: AgentTimersWatch?
    /// Where the app runs, read once: the host or a Flatpak sandbox, which
    /// decides the agent's bus name and who keeps the agent running.
    let place: RunningPlace
    /// Who starts the agent inside the sandbox (SandboxAgentMachine).
    var sandboxAgent = SandboxAgentMachine()
    /// The desktop's style, followed from the settings portal.
    var appearanceWatch: AppearanceWatch?
    var graceSource: guint = 0
    /// GIO's notification backend for the app's notices, read at the first
    /// one (GIO keeps its choice for the process too).
    var noticeSurface: AppNoticeSurfaceRule.Surface?
    /// The environment names a locale glibc does not have: said in the log
    /// once, by the instance that runs the window.
    let localeMissing: Bool

    public init(environment: [String: String], executable: String, localeMissing: Bool = false) {
        // Before GTK or WebKit starts a thread or a process: whatever WebKit
        // writes (the sign-in among it), and its web processes, which
        // inherit the mask, is this user's alone, wherever a folder's mode
        // or a link would have let a 0644 file be read.
        FileCreationMask.makePrivate()
        self.environment = environment
        self.executable = executable
        self.localeMissing = localeMissing
        place = RunningPlace.current()
        paths = AppPaths(environment: environment)
        let flags = GApplicationFlags(rawValue: DFL_G_APPLICATION_HANDLES_OPEN.rawValue | DFL_G_APPLICATION_HANDLES_COMMAND_LINE.rawValue)
        application = gtk_application_new(Self.applicationID, flags)
    }

    public func run(arguments: [String]) -> Int32 {
        // Help needs neither the display nor the running instance.
        if AppCommandLine(arguments: arguments).request == .help {
            print(AppText.usage)
            return ExitStatus.success
        }
        // A write to a bridge that has just ended must fail with EPIPE, not
        // end the app.
        signal(SIGPIPE, SIG_IGN)
        g_set_application_name(AppText.applicationName)
        dfl_connect_void(application, "startup", { _, data in
            from(data, as: DesktopApplication.self).startup()
        }, unretained(self), nil)
        dfl_connect_void(application, "activate", { _, data in
            from(data, as: DesktopApplication.self).presentWindow()
        }, unretained(self), nil)
        dfl_connect_open(application, "open", { _, files, count, _, data in
            let uris = (0..<Int(count)).compactMap { takeGString(g_file_get_uri(files![$0])) }
            from(data, as: DesktopApplication.self).open(uris)
        }, unretained(self), nil)
        dfl_connect_command_line(application, "command-line", { _, commandLine, data in
            from(data, as: DesktopApplication.self).commandLine(commandLine!)
        }, unretained(self), nil)
        for signalNumber in [SIGTERM, SIGINT] {
            g_unix_signal_add(signalNumber, { data in
                from(data, as: DesktopApplication.self).quit(why: "a signal")
                return 1
            }, unretained(self))
        }
        // This launch's activation token (xdg-activation, or the X11 startup
        // id) travels with its command line to the running instance, which
        // raises its window with it. GDK takes the variables out of the
        // environment before GLib would send them, so they are read here.
        var forwarded = arguments
        if let token = AppCommandLine.activationToken(environment: environment) {
            forwarded.insert(AppCommandLine.activationTokenOption + token, at: min(1, forwarded.count))
        }
        let status = withArgumentVector(forwarded) { argv in
            g_application_run(dfl_g_application(application), gint(forwarded.count), argv)
        }
        window?.bridge?.stop()
        g_object_unref(application)
        return status
    }

    /// Reads the configuration once, in the instance that runs the window.
    private func startup() {
        if localeMissing { AppLog.log(.warning, AppLogText.localeMissing) }
        // Files left readable by others by an older release or a tool.
        if let why = PrivateTree.prepare(paths.state, what: "the state folder") {
            AppLog.log(.warning, AppLogText.stateFolderNotPrivate(why))
        }
        startBackgroundSupport()
        if let connection = g_application_get_dbus_connection(dfl_g_application(application)) {
            appearanceWatch = AppearanceWatch(connection: connection)
        }
        do {
            let (configuration, file) = try Configuration.load(environment: environment, keyFiles: GLibKeyFiles())
            AppLog.log(.info, file.map(AppLogText.configuration) ?? AppLogText.noConfiguration)
            _ = setup.configurationRead(configuration)
        } catch {
            AppLog.log(.error, AppLogText.configurationError(setup.configurationFailed(error.description)))
        }
    }

    /// Shows the window, raised with the launch's activation token when
    /// there is one (GTK takes the token of a D-Bus Open or Activate from
    /// its platform data itself).
    @discardableResult
    func presentWindow(activationToken: String? = nil) -> AppWindow {
        let window = self.window ?? makeWindow()
        window.present(activationToken: activationToken)
        apply(background.shown())
        return window
    }

    /// The one window, made once; shown by presentWindow, or kept hidden
    /// when the app starts in the background.
    @discardableResult
    func makeWindow() -> AppWindow {
        if let window { return window }
        let wanted = setup.windowWanted()
        let (windowSetup, automation) = (wanted.setup, wanted.automation)
        if automation {
            // Before the view exists: WebKit gives a view that automation
            // controls only to a context that allows automation.
            AppLog.log(.notice, AppLogText.automationOn)
            webkit_web_context_set_automation_allowed(webkit_web_context_get_default(), 1)
        }
        let window = AppWindow(
            application: application, setup: windowSetup, paths: paths,
            automation: automation,
            bridgeProgram: AppPaths.bridgeProgram(environment: environment, executable: executable))
        self.window = window
        appearanceWatch?.follow(window.webView)
        window.onCloseRequest = { [unowned self] in self.closeRequested() }
        window.admit = { [unowned self] wayIn in self.admit(by: wayIn) }
        if automation { enableAutomation(for: window) }
        return window
    }

    /// Links from org.freedesktop.Application.Open, carried out as LinkRule
    /// decides. The bad links of one call are one line with their count
    /// and one notice (the first one's reason).
    private func open(_ uris: [String]) {
        let steps = LinkRule.steps(for: uris)
        if LinkRule.acts(steps), !admit(by: "Open") { return }
        var refused: (first: AppDeepLink.Refusal, count: Int)?
        for step in steps {
            switch step {
            case .showWindow:
                presentWindow()
            case .open(let link):
                presentWindow().open(link)
            case .refuse(let refusal):
                refused = (refused?.first ?? refusal, (refused?.count ?? 0) + 1)
            }
        }
        guard let refused else { return }
        logRefusal(.notice, AppLogText.refusedLink(refused.first), by: "Open", count: refused.count)
        window?.showNotice(AppText.linkRefused(refused.first))
    }

    /// Writes a refusal within its caller's log budget: the first at once,
    /// the rest counted into one line a minute, so that a caller sending
    /// bad links or ids by the thousand cannot fill the journal.
    /// GApplication does not say which connection called, so the caller is
    /// the way in (Open, an action).
    func logRefusal(_ priority: LogPriority, _ line: String, by caller: String, count: Int = 1) {
        guard case .log(let total) = refusalLog.refused(count, by: caller, now: SystemClock().now()) else { return }
        AppLog.log(priority, line + AppLogText.refusalCount(total))
    }

    /// Whether a call of `wayIn` may do what it asks: any program of the
    /// session can call the app's Open and its exported actions, and each
    /// loads a page, starts a call to the agent or writes lines, so they
    /// have the agent's own bounds (CallerRateLimitMachine.Settings.opens)
    /// and log budget. Asked once a call is known to do something, as the
    /// agent asks once an Open names a timer it holds. GApplication does not say which connection called,
    /// so the caller is the way in, and the bound of all callers together
    /// holds for every way in at once. A refusal is logged within the
    /// budget and does nothing else.
    func admit(by wayIn: String) -> Bool {
        let now = SystemClock().now()
        guard wayInLimit.asked(by: wayIn, now: now) == .refuse else { return true }
        logRefusal(.notice, AppLogText.refusedTooOften(wayIn), by: wayIn)
        return false
    }

    private func commandLine(_ commandLine: UnsafeMutablePointer<GApplicationCommandLine>) -> gint {
        var count: gint = 0
        let argv = g_application_command_line_get_arguments(commandLine, &count)
        let arguments = (0..<Int(count)).map { String(cString: argv![$0]!) }
        g_strfreev(argv)
        let parsed = AppCommandLine(arguments: arguments)
        if parsed.automation {
            // Only the instance that starts with it, before its window
            // exists: a forwarded command line cannot turn it on.
            switch setup.automationAsked(remote: g_application_command_line_get_is_remote(commandLine) != 0) {
            case .allow: break
            case .ignore: AppLog.log(.warning, AppLogText.automationIgnored)
            }
        }
        let token = parsed.activationToken
        switch parsed.request {
        case .help:
            dfl_command_line_print(commandLine, AppText.usage)
            return ExitStatus.success
        case .refuse(let message, let refusal):
            dfl_command_line_printerr(commandLine, message)
            if let refusal {
                logRefusal(.notice, AppLogText.refusedLink(refusal), by: "the command line")
                window?.showNotice(AppText.linkRefused(refusal))
            }
            return ExitStatus.refusedCommandLine
        case .show:
            presentWindow(activationToken: token)
            return ExitStatus.success
        case .open(let link):
            guard admit(by: "the command line") else { return ExitStatus.success }
            presentWindow(activationToken: token).open(link)
            return ExitStatus.success
        }
    }

    /// WebKitWebDriver's session drives the one window (see docs/SECURITY.md).
    private func enableAutomation(for window: AppWindow) {
        dfl_connect_pointer(raw(webkit_web_context_get_default()), "automation-started", { _, session, data in
            let info = webkit_application_info_new()
            webkit_application_info_set_name(info, "dreamsforlittles")
            let version = (AppIdentity.versionNumbers + [0, 0, 0]).map { guint64($0) }
            webkit_application_info_set_version(info, version[0], version[1], version[2])
            webkit_automation_session_set_application_info(OpaquePointer(session), info)
            webkit_application_info_unref(info)
            dfl_connect_create_view(session, "create-web-view", { _, data in
                from(data, as: AppWindow.self).webView
            }, data, nil)
        }, unretained(window), nil)
        // The session's end closes its browsing context, and WebKitWebDriver
        // waits for that before it answers: the app quits, as a browser
        // would, rather than keeping a view nobody closes.
        dfl_connect_void(window.webView, "close", { _, data in
            from(data, as: DesktopApplication.self).quit(why: "the WebDriver session ended")
        }, unretained(self), nil)
    }
}

/// On the GTK main thread only, where GLib calls it back: the compiler keeps it there.
@available(*, unavailable)
extension DesktopApplication: Sendable {}
