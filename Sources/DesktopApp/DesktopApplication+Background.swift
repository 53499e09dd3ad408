import BusNames
import CDFLWebKitGTK
import DesktopAppCore
import Glibc
import SleepTimerCore
import SleepTimersAPI

/// Running with the window closed: BackgroundMachine decides, this carries
/// it out. The window is hidden, not destroyed, so the web view (the web
/// app's session, its realtime updates) and the bridge (renewals) live on;
/// the application is held while it has no window shown.
extension DesktopApplication {
    /// The app's actions, and the agent's timers followed on the bus (and,
    /// in the sandbox, the agent kept running): in the instance that runs
    /// the window.
    func startBackgroundSupport() {
        background = BackgroundMachine(noticeGiven: g_file_test(paths.backgroundNoticeGiven, DFL_G_FILE_TEST_EXISTS) != 0)
        addApplicationAction(AppActionName.quit.rawValue, accelerators: ["<Control>q"]) { $0.quit(why: "Quit was chosen") }
        // The agent's way to start the app when a token needs renewal and no
        // bridge answers: the web app loads, its window never shows.
        addApplicationAction(AppActionName.background.rawValue, accelerators: []) { $0.startInBackground() }
        // The notification's Complete and Open (DesktopApplication+TimerActions).
        addTimerActions()
        if let connection = g_application_get_dbus_connection(dfl_g_application(application)) {
            let watch = AgentTimersWatch(connection: connection, agentName: SleepTimers1.busName)
            watch.onTimers = { [unowned self] timers in
                self.sandboxAgent.timersListed(count: timers.count)
                self.apply(self.background.timersListed(timers))
            }
            watch.onPresence = { [unowned self] present in
                if present { self.sandboxAgent.agentAppeared() } else { self.sandboxAgentVanished() }
            }
            watch.isWindowShown = { [unowned self] in self.window?.isVisible ?? false }
            watch.onAnnouncement = { [unowned self] text in self.window?.announce(text) }
            timersWatch = watch
        }
        // Read once: the menu's check item and the portal's request agree.
        let startAtLogin = startAtLoginAtStart()
        addStartAtLoginAction(on: startAtLogin)
        startSandboxAgent(startAtLogin: startAtLogin)
    }

    /// The window asked to close: it is hidden, or it goes with the app.
    func closeRequested() {
        window?.saveState()
        apply(background.closeRequested())
    }

    func quit(why: String) {
        AppLog.log(.info, AppLogText.quitting(why))
        apply(background.quitRequested())
    }

    private func startInBackground() {
        guard window == nil, admit(by: AppActionName.background.rawValue) else { return }
        AppLog.log(.info, AppLogText.startedInBackground)
        makeWindow()
        apply(background.startedHidden())
    }

    /// What the window's and the agent's news lead to (BackgroundMachine).
    func apply(_ actions: [BackgroundMachine.Action]) {
        for action in actions {
            switch action {
            case .hideWindow:
                AppLog.log(.info, AppLogText.keepsRunning)
                window?.hide()
            case .hold:
                g_application_hold(dfl_g_application(application))
            case .release:
                g_application_release(dfl_g_application(application))
            case .notice(let text):
                sendNotification(id: "background", body: text)
                g_mkdir_with_parents(paths.state, 0o700)
                g_file_set_contents(paths.backgroundNoticeGiven, "", 0, nil)
            case .startGrace(let grace):
                startGrace(grace)
            case .cancelGrace:
                cancelGrace()
            case .quit(let sayWhatStops):
                quitNow(sayWhatStops: sayWhatStops)
            }
        }
    }

    private func startGrace(_ grace: Duration) {
        let seconds = Int(grace.roundedSeconds)
        AppLog.log(.info, AppLogText.graceStarted(seconds))
        if graceSource != 0 { g_source_remove(graceSource) }
        graceSource = g_timeout_add_seconds(guint(seconds), { data in
            let app = from(data, as: DesktopApplication.self)
            app.graceSource = 0
            app.apply(app.background.graceElapsed())
            return 0
        }, unretained(self))
    }

    private func cancelGrace() {
        if graceSource != 0 { g_source_remove(graceSource) }
        graceSource = 0
    }

    /// Quit for real; `sayWhatStops`: the parent is told in one line what
    /// no longer happens.
    private func quitNow(sayWhatStops: Bool) {
        let app = dfl_g_application(application)
        g_application_withdraw_notification(app, "background")
        if let window, window.isVisible { window.saveState() }
        window?.destroy()
        if sayWhatStops {
            sendNotification(id: "quit", body: AppText.quitStops) { g_application_quit(app) }
        } else {
            g_application_quit(app)
        }
    }

    /// A desktop notification of the app's own (GIO picks the desktop's
    /// service); `then` runs once it is handed over, and the app may quit
    /// there. The body goes through the one escape of notification bodies
    /// where GIO's backend hands it to a server that reads markup (a baby's
    /// name is in it); the title is plain text everywhere.
    func sendNotification(id: String, body: String, then handedOver: (() -> Void)? = nil) {
        let text = noticeBody(body)
        if noticeSurface == .portal, let connection = g_application_get_dbus_connection(dfl_g_application(application)) {
            sendPortalNotice(id: id, body: text, on: connection, then: handedOver)
            return
        }
        // GApplication sends what is queued before it exits.
        let notification = g_notification_new(AppText.applicationName)!
        g_notification_set_body(notification, text)
        g_application_send_notification(dfl_g_application(application), id, notification)
        g_object_unref(raw(notification))
        handedOver?()
    }

    /// The notice as GIO's portal backend sends it (title, body, normal
    /// priority; the same id, so GIO's withdraw takes it away), but with a
    /// reply, and the app held until it comes. GIO sends AddNotification
    /// expecting no reply, and xdg-desktop-portal asks the bus who sent a
    /// call only once it arrives: from an app that has quit in between (a
    /// Complete pressed on a Sleep that had ended, Quit while a Sleep
    /// runs), the notice is refused as from nobody and never shown.
    private func sendPortalNotice(id: String, body: String, on connection: OpaquePointer, then handedOver: (() -> Void)?) {
        let dictionary = g_variant_type_new("a{sv}")
        let properties = g_variant_builder_new(dictionary)
        g_variant_type_free(dictionary)
        g_variant_builder_add_value(properties, optionEntry("title", g_variant_new_string(AppText.applicationName)))
        g_variant_builder_add_value(properties, optionEntry("body", g_variant_new_string(body)))
        g_variant_builder_add_value(properties, optionEntry("priority", g_variant_new_string("normal")))
        var arguments: [OpaquePointer?] = [g_variant_new_string(id), g_variant_builder_end(properties)]
        g_variant_builder_unref(properties)
        g_application_hold(dfl_g_application(application))
        g_dbus_connection_call(
            connection, ExternalInterface.Portal.name, ExternalInterface.Portal.path,
            ExternalInterface.Portal.notificationInterface, ExternalInterface.Portal.addNotification,
            g_variant_new_tuple(&arguments, gsize(arguments.count)), nil, DFL_G_DBUS_CALL_FLAGS_NONE,
            BusCall.timeoutMilliseconds, nil, { source, result, data in
                let notice = taken(data, as: PendingNotice.self)
                var error: UnsafeMutablePointer<GError>?
                if let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, &error) {
                    g_variant_unref(reply)
                } else {
                    AppLog.log(.warning, AppLogText.noticeRefused(takeGError(error)))
                }
                notice.handedOver?()
                g_application_release(dfl_g_application(notice.application.application))
            }, retained(PendingNotice(application: self, handedOver: handedOver)))
    }

    /// The notice's body as GIO's backend will show it: the backend read as
    /// GIO reads it (AppNoticeSurfaceRule), once, and on the freedesktop path
    /// the server's capabilities. Both are synchronous calls of a notice
    /// that is sent at most once a run, as GIO's own backend choice is.
    private func noticeBody(_ text: String) -> String {
        let connection = g_application_get_dbus_connection(dfl_g_application(application))
        let surface = noticeSurface ?? AppNoticeSurfaceRule.surface(
            forced: environment["GNOTIFICATION_BACKEND"],
            portalPreferred: place.isSandboxed || environment["GTK_USE_PORTAL"] == "1",
            gtkServerPresent: connection.map { Self.nameHasOwner(ExternalInterface.GtkNotifications.name, on: $0) } ?? false)
        noticeSurface = surface
        let capabilities = surface == .freedesktop ? connection.flatMap(Self.notificationCapabilities) : nil
        return AppNoticeSurfaceRule.body(text, on: surface, capabilities: capabilities)
    }

    private static func nameHasOwner(_ name: String, on connection: OpaquePointer) -> Bool {
        var arguments: [OpaquePointer?] = [g_variant_new_string(name)]
        let reply = g_dbus_connection_call_sync(
            connection, StandardInterface.Bus.name, StandardInterface.Bus.path, StandardInterface.Bus.name,
            StandardInterface.Bus.getNameOwner, g_variant_new_tuple(&arguments, 1), nil, DFL_G_DBUS_CALL_FLAGS_NONE,
            BusCall.milliseconds(BusCall.quick), nil, nil)
        guard let reply else { return false }
        g_variant_unref(reply)
        return true
    }

    /// GetCapabilities of org.freedesktop.Notifications (started by the bus
    /// if need be, as GIO's Notify would start it); nil without an answer.
    private static func notificationCapabilities(on connection: OpaquePointer) -> [String]? {
        let server = ExternalInterface.Notifications.self
        guard let reply = g_dbus_connection_call_sync(
            connection, server.name, server.path, server.interface, server.getCapabilities, nil, nil,
            DFL_G_DBUS_CALL_FLAGS_NONE, BusCall.milliseconds(BusCall.quick), nil, nil) else { return nil }
        defer { g_variant_unref(reply) }
        guard String(cString: g_variant_get_type_string(reply)) == "(as)",
              let list = g_variant_get_child_value(reply, 0) else { return nil }
        defer { g_variant_unref(list) }
        return (0..<g_variant_n_children(list)).compactMap { index in
            guard let item = g_variant_get_child_value(list, index) else { return nil }
            defer { g_variant_unref(item) }
            return String(cString: g_variant_get_string(item, nil))
        }
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

/// An app notice on its way to the portal: what runs once it is there.
private final class PendingNotice {
    let application: DesktopApplication
    let handedOver: (() -> Void)?
    init(application: DesktopApplication, handedOver: (() -> Void)?) {
        self.application = application
        self.handedOver = handedOver
    }
}
