import CDFLWebKitGTK
import DesktopAppCore
import Glibc
import GLibParsing
import SleepTimerCore
import SleepTimersAPI

/// The one window: a header bar with Back and Reload, a notice bar for
/// refused links, and the web view showing the web app.
///
/// Used on the GTK main thread only.
final class AppWindow {
    let window: UnsafeMutablePointer<GtkWindow>
    let webView: UnsafeMutablePointer<WebKitWebView>
    let setup: AppSetup
    let paths: AppPaths
    let policy: NavigationRule?
    /// The navigation decisions, with the top frame's clicks and the
    /// refusals logged lately (nil when there is no web app to show).
    var launches: LaunchMachine?
    /// Which dialogs a page may open, with the person's last click in the
    /// top frame and the refusals logged lately.
    var dialogs: DialogMachine
    let relay: BridgeRelayRule?
    let website: WebsiteSession
    let opener: ExternalOpener
    var bridge: BridgeChild?
    /// The close button, the window manager or Ctrl+W: the application
    /// decides whether the window hides or the app quits.
    var onCloseRequest: () -> Void = {}
    /// Whether a call of a window action may do what it asks (the app's
    /// bound on its ways in, DesktopApplication.admit).
    var admit: (String) -> Bool = { _ in true }
    var backButton: UnsafeMutablePointer<GtkWidget>!
    var notice: UnsafeMutablePointer<GtkWidget>!
    var noticeLabel: UnsafeMutablePointer<GtkWidget>!
    var noticeSource: guint = 0

    /// What the page loads, shows on a failure, and when it tries again
    /// (PageLoadMachine); the retry's timer is `retrySource`.
    var page: PageLoadMachine
    var retrySource: guint = 0
    /// Where the next Tab goes, and which key WebKit hands back.
    var tabFocus = TabFocusMachine()

    init(application: UnsafeMutablePointer<GtkApplication>, setup: AppSetup, paths: AppPaths, automation: Bool,
         bridgeProgram: String)
    {
        self.setup = setup
        self.paths = paths
        page = PageLoadMachine(setup: setup)
        var certificateAuthorities: String?
        if case .configured(let origin, let authorities) = setup {
            policy = NavigationRule(webOrigin: origin)
            launches = LaunchMachine(rule: NavigationRule(webOrigin: origin))
            relay = BridgeRelayRule(policy: NavigationRule(webOrigin: origin))
            dialogs = DialogMachine(rule: NavigationRule(webOrigin: origin))
            certificateAuthorities = authorities
        } else {
            policy = nil
            relay = nil
            dialogs = DialogMachine(rule: nil)
        }
        website = WebsiteSession(paths: paths, certificateAuthorities: certificateAuthorities)
        opener = ExternalOpener()
        let content = webkit_user_content_manager_new()!
        let context = webkit_web_context_get_default()!
        window = dfl_gtk_window(gtk_application_window_new(application))
        webView = dfl_web_view_new(website.session, content, context, automation ? 1 : 0)
        g_object_unref(raw(content))
        website.use(webkit_web_view_get_network_session(webView))
        buildChrome()
        configureView()
        website.downloadRefused = { [unowned self] url in self.downloadRefused(url) }
        if let relay, case .configured(let origin, _) = setup {
            installClickReporter(origin: origin, content: content)
            installBridge(relay: relay, origin: origin, content: content, program: bridgeProgram)
        }
        restoreState()
        // Until dismissed: the window may be shown long after it was made.
        if case .inMemory = website.storage { showNotice(AppText.websiteDataNotKept, lasting: true) }
        showStart()
    }

    // MARK: Chrome

    private func buildChrome() {
        gtk_window_set_title(window, AppText.applicationName)
        gtk_window_set_icon_name(window, AppIdentity.appID)
        let header = gtk_header_bar_new()!
        backButton = button(icon: "go-previous-symbolic", tooltip: AppText.backTooltip) { $0.goBack() }
        gtk_widget_set_sensitive(backButton, 0)
        describe(backButton, AppAccessibleText.back)
        let reload = button(icon: "view-refresh-symbolic", tooltip: AppText.reloadTooltip) { $0.reload() }
        describe(reload, AppAccessibleText.reload)
        gtk_header_bar_pack_start(dfl_gtk_header_bar(header), backButton)
        gtk_header_bar_pack_start(dfl_gtk_header_bar(header), reload)
        gtk_header_bar_pack_end(dfl_gtk_header_bar(header), menuButton())
        gtk_window_set_titlebar(window, header)

        noticeLabel = gtk_label_new(nil)
        gtk_label_set_wrap(dfl_gtk_label(noticeLabel), 1)
        gtk_widget_set_hexpand(noticeLabel, 1)
        gtk_label_set_xalign(dfl_gtk_label(noticeLabel), 0)
        let dismiss = button(icon: "window-close-symbolic", tooltip: AppText.dismissTooltip) { $0.hideNotice() }
        describe(dismiss, AppAccessibleText.dismiss)
        let noticeBox = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
        gtk_widget_add_css_class(noticeBox, "toolbar")
        gtk_box_append(dfl_gtk_box(noticeBox), noticeLabel)
        gtk_box_append(dfl_gtk_box(noticeBox), dismiss)
        notice = gtk_revealer_new()
        gtk_revealer_set_child(dfl_gtk_revealer(notice), noticeBox)

        let column = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_box_append(dfl_gtk_box(column), notice)
        let view = dfl_gtk_widget(webView)
        gtk_widget_set_vexpand(view, 1)
        gtk_box_append(dfl_gtk_box(column), view)
        gtk_window_set_child(window, column)
        // The keyboard goes to the page first, not to the header's buttons.
        gtk_window_set_focus(window, view)
        keepHiddenControlsOutOfTheFocusChain()
        handleTabs()

        // Handled here always: the window hides, or is destroyed with the app.
        dfl_connect_bool_void(window, "close-request", { _, data in
            from(data, as: AppWindow.self).onCloseRequest()
            return 1
        }, unretained(self), nil)
        addAction("close", accelerators: ["<Control>w"]) { $0.close() }
        addAction("reload", accelerators: ["<Control>r", "F5"]) { $0.reload() }
        addAction("back", accelerators: ["<Alt>Left"]) { $0.goBack() }
        if case .configured = setup { addAction("sign-out", accelerators: []) { $0.signOut() } }
    }

    /// The window's menu: Sign out (SignOut), offered with a web app only,
    /// and Quit, which ends the app even while a Sleep keeps it running with
    /// the window closed.
    private func menuButton() -> UnsafeMutablePointer<GtkWidget> {
        let menu = g_menu_new()!
        if case .configured = setup { g_menu_append(menu, AppText.signOutMenuItem, "win.sign-out") }
        // A check item: the action has a boolean state.
        g_menu_append(menu, AppText.startAtLoginMenuItem, "app." + StartAtLoginRule.actionName)
        g_menu_append(menu, AppText.quitMenuItem, "app.quit")
        let button = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(dfl_gtk_menu_button(button), "open-menu-symbolic")
        gtk_menu_button_set_menu_model(dfl_gtk_menu_button(button), UnsafeMutableRawPointer(menu).assumingMemoryBound(to: GMenuModel.self))
        gtk_widget_set_tooltip_text(button, AppText.menuTooltip)
        // Named as it is seen: without a name GTK calls it "GtkMenuButton".
        dfl_accessible_name(button, AppText.menuTooltip)
        g_object_unref(raw(menu))
        return button
    }

    /// A flat icon button whose click runs `action` on this window.
    private func button(icon: String, tooltip: String, _ action: @escaping (AppWindow) -> Void)
        -> UnsafeMutablePointer<GtkWidget>
    {
        let widget = gtk_button_new_from_icon_name(icon)!
        gtk_widget_set_tooltip_text(widget, tooltip)
        dfl_connect_void(widget, "clicked", { _, data in
            let handler = from(data, as: Handler.self)
            handler.action(handler.window!)
        }, retained(Handler(window: self, action: action)), { data, _ in
            Unmanaged<Handler>.fromOpaque(data!).release()
        })
        return widget
    }

    /// A window action (`win.NAME`) with its keyboard shortcuts. GTK
    /// exports it on the session bus (org.gtk.Actions), where any program
    /// can call it, so each call is asked of `admit` first, as the app's
    /// own actions are.
    private func addAction(_ name: String, accelerators: [String], _ action: @escaping (AppWindow) -> Void) {
        DesktopApp.addAction(
            name, to: window, scope: "win", application: gtk_window_get_application(window), accelerators: accelerators
        ) { [weak self] in if let self, self.admit("win." + name) { action(self) } }
    }

    /// The data of a button's handler: the window, weakly (the
    /// widget and its handler go with the window), and what to do.
    fileprivate final class Handler {
        weak var window: AppWindow?
        let action: (AppWindow) -> Void
        init(window: AppWindow, action: @escaping (AppWindow) -> Void) {
            self.window = window
            self.action = action
        }
    }

    func present(activationToken: String? = nil) {
        if let activationToken { gtk_window_set_startup_id(window, activationToken) }
        gtk_window_present(window)
    }

    func close() { gtk_window_close(window) }

    /// Hidden, not destroyed: the web view and the bridge live on; WebKit
    /// sees the view unmapped, so the page is hidden and throttled.
    func hide() { gtk_widget_set_visible(dfl_gtk_widget(window), 0) }

    var isVisible: Bool { gtk_widget_get_visible(dfl_gtk_widget(window)) != 0 }

    func destroy() { gtk_window_destroy(window) }

    // MARK: Notices

    /// A line above the page (a refused link, website data not kept): for
    /// 15 s, or until dismissed when it is `lasting`.
    func showNotice(_ text: String, lasting: Bool = false) {
        gtk_label_set_text(dfl_gtk_label(noticeLabel), text)
        gtk_revealer_set_reveal_child(dfl_gtk_revealer(notice), 1)
        if noticeSource != 0 { g_source_remove(noticeSource) }
        noticeSource = 0
        if lasting { return }
        noticeSource = g_timeout_add_seconds(15, { data in
            let window = from(data, as: AppWindow.self)
            window.noticeSource = 0
            window.hideNotice()
            return 0
        }, unretained(self))
    }

    func hideNotice() {
        gtk_revealer_set_reveal_child(dfl_gtk_revealer(notice), 0)
    }

    // MARK: The window's size, kept between runs

    private func restoreState() {
        var contents: UnsafeMutablePointer<gchar>?
        var length: gsize = 0
        var state = WindowState.standard
        if g_file_get_contents(paths.windowState, &contents, &length, nil) != 0, let contents {
            state = WindowState(parsing: String(cString: contents), keyFiles: GLibKeyFiles())
            g_free(contents)
        }
        gtk_window_set_default_size(window, gint(state.width), gint(state.height))
        if state.maximized { gtk_window_maximize(window) }
    }

    func saveState() {
        var width: gint = 0
        var height: gint = 0
        gtk_window_get_default_size(window, &width, &height)
        let state = WindowState(width: Int(width), height: Int(height), maximized: gtk_window_is_maximized(window) != 0)
        g_mkdir_with_parents(paths.state, 0o700)
        var error: UnsafeMutablePointer<GError>?
        if g_file_set_contents(paths.windowState, state.serialized, -1, &error) == 0 {
            AppLog.log(.warning, AppLogText.windowStateNotSaved(paths.windowState, takeGError(error)))
        }
    }
}

/// On the GTK main thread only, where GLib calls it back: the compiler keeps it there.
@available(*, unavailable)
extension AppWindow: Sendable {}

/// On the GTK main thread only, where GLib calls it back: the compiler keeps it there.
@available(*, unavailable)
extension AppWindow.Handler: Sendable {}
