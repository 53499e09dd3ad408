import CDFLWebKitGTK
import DesktopAppCore
import Glibc
import SleepTimerCore

/// Running with the window closed: BackgroundPolicy decides, this carries
/// it out. The window is hidden, not destroyed, so the web view (the web
/// app's session, its realtime updates) and the bridge (renewals) live on;
/// the application is held while it has no window shown.
extension DesktopApplication {
    /// The app's actions, and the agent's timers followed on the bus (and,
    /// in the sandbox, the agent kept running): in the instance that runs
    /// the window.
    func startBackgroundSupport() {
        background = BackgroundPolicy(noticeGiven: g_file_test(paths.backgroundNoticeGiven, G_FILE_TEST_EXISTS) != 0)
        addApplicationAction(AppActionName.quit.rawValue, accelerators: ["<Control>q"]) { $0.quit(why: "Quit was chosen") }
        // The agent's way to start the app when a token needs renewal and no
        // bridge answers: the web app loads, its window never shows.
        addApplicationAction(AppActionName.background.rawValue, accelerators: []) { $0.startInBackground() }
        // The notification's Complete and Open (DesktopApplication+TimerActions).
        addTimerActions()
        if let connection = g_application_get_dbus_connection(dfl_g_application(application)) {
            let watch = AgentTimersWatch(connection: connection, agentName: TimerActions.agentBusName(for: place))
            watch.onTimers = { [unowned self] timers in
                self.keepAgent(.timers(count: timers.count))
                self.apply(self.background.handle(.timers(timers)))
            }
            watch.onPresence = { [unowned self] present in self.keepAgent(present ? .agentAppeared : .agentVanished) }
            watch.isWindowShown = { [unowned self] in self.window?.isVisible ?? false }
            watch.onAnnouncement = { [unowned self] text in self.window?.announce(text) }
            timersWatch = watch
        }
        keepAgent(.started(place))
    }

    /// The window asked to close: it is hidden, or it goes with the app.
    func closeRequested() {
        window?.saveState()
        apply(background.handle(.closeRequested))
    }

    func quit(why: String) {
        AppLog.log(.info, AppLogText.quitting(why))
        apply(background.handle(.quitRequested))
    }

    private func startInBackground() {
        guard window == nil else { return }
        AppLog.log(.info, AppLogText.startedInBackground)
        makeWindow()
        apply(background.handle(.startedHidden))
    }

    func apply(_ actions: [BackgroundPolicy.Action]) {
        let app = dfl_g_application(application)
        for action in actions {
            switch action {
            case .hideWindow:
                AppLog.log(.info, AppLogText.keepsRunning)
                window?.hide()
            case .hold:
                g_application_hold(app)
            case .release:
                g_application_release(app)
            case .notice(let text):
                sendNotification(id: "background", body: text)
                g_mkdir_with_parents(paths.state, 0o700)
                g_file_set_contents(paths.backgroundNoticeGiven, "", 0, nil)
            case .startGrace(let seconds):
                AppLog.log(.info, AppLogText.graceStarted(seconds))
                if graceSource != 0 { g_source_remove(graceSource) }
                graceSource = g_timeout_add_seconds(guint(seconds), { data in
                    let app = from(data, as: DesktopApplication.self)
                    app.graceSource = 0
                    app.apply(app.background.handle(.graceElapsed))
                    return 0
                }, unretained(self))
            case .cancelGrace:
                if graceSource != 0 { g_source_remove(graceSource) }
                graceSource = 0
            case .quit(let sayWhatStops):
                if sayWhatStops { sendNotification(id: "quit", body: AppText.quitStops) }
                g_application_withdraw_notification(app, "background")
                if let window, window.isVisible { window.saveState() }
                window?.destroy()
                g_application_quit(app)
            }
        }
    }

    /// A desktop notification of the app's own (GIO picks the desktop's
    /// service); GApplication sends what is queued before it exits.
    private func sendNotification(id: String, body: String) {
        let notification = g_notification_new(AppText.applicationName)!
        g_notification_set_body(notification, body)
        g_application_send_notification(dfl_g_application(application), id, notification)
        g_object_unref(raw(notification))
    }

    /// An application action (`app.NAME`), reachable on the bus through
    /// org.freedesktop.Application.ActivateAction, with its shortcuts.
    private func addApplicationAction(_ name: String, accelerators: [String],
                                      _ action: @escaping (DesktopApplication) -> Void)
    {
        addAction(name, to: application, scope: "app", application: application, accelerators: accelerators) {
            [weak self] in if let self { action(self) }
        }
    }
}
