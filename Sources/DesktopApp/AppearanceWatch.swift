import BusNames
import CDFLWebKitGTK
import DesktopAppCore
import Glibc
import SleepTimerCore

/// The desktop's style, read from the settings portal on the app's own
/// session bus connection and followed through its SettingChanged signal, so
/// that a change applies while the app runs. DesktopAppearance decides what
/// GtkSettings gets (dark, GTK's high-contrast theme, the text's DPI), the
/// web views' text zoom and their own pages' high-contrast style sheet; this
/// carries it out. The portal is the one that
/// GNOME, Plasma and xdg-desktop-portal-gtk serve, and libadwaita reads:
/// asking it keeps the app plain GTK 4. Without a portal, or for a key it
/// does not serve, nothing is set.
///
/// Each key is read with ReadOne (version 2 of the interface), or with Read
/// where the portal has no ReadOne (version 1, Debian 12's 1.16), whose
/// value comes in a second variant, as PortalReadRule decides.
///
/// Used on the GTK main thread only.
final class AppearanceWatch {
    private typealias Portal = ExternalInterface.Portal
    fileprivate typealias Key = DesktopAppearance.Key

    private let connection: OpaquePointer
    private var subscription: guint = 0
    private var appearance = DesktopAppearance()
    private var applied = AppliedAppearance.untouched
    /// Keys whose SettingChanged came before their first read's answer:
    /// the signal is newer.
    private var heard: [Key] = []
    private var unanswered = 0
    /// Changes are applied once a burst, at an idle turn of the loop, and
    /// at most once a period while they keep coming.
    private var burst = AppearanceBurstMachine()
    private var idleSource: guint = 0
    private var periodSource: guint = 0
    /// One line of the style every few seconds at most, whatever a flood.
    private var styleLog = LogBudgetMachine<Instant>(settings: AppearanceWatch.styleLines)
    private var flushSource: guint = 0
    static let styleLines = LogBudgetMachine<Instant>.Settings(period: .seconds(5), maximumCallers: 1)
    fileprivate static let styleCaller = "the settings portal"
    private var webViews: [UnsafeMutablePointer<WebKitWebView>] = []
    /// AppPages.highContrastStyle, made once, added to each web view's
    /// content while the desktop asks for high contrast.
    private let pagesStyle = webkit_user_style_sheet_new(
        AppPages.highContrastStyle, WEBKIT_USER_CONTENT_INJECT_TOP_FRAME, WEBKIT_USER_STYLE_LEVEL_USER, nil, nil)!

    init(connection: OpaquePointer) {
        self.connection = connection
        g_object_ref(raw(connection))
        // Subscribed before the first read, so that no change falls between.
        subscription = g_dbus_connection_signal_subscribe(
            connection, Portal.name, Portal.settingsInterface, Portal.settingChanged, Portal.path, nil,
            DFL_G_DBUS_SIGNAL_FLAGS_NONE, { _, _, _, _, _, parameters, data in
                from(data, as: AppearanceWatch.self).settingChanged(parameters)
            }, unretained(self), nil)
        unanswered = Key.allCases.count
        for key in Key.allCases { read(key, method: PortalReadRule.firstMethod) }
    }

    deinit {
        for source in [idleSource, periodSource, flushSource] where source != 0 { g_source_remove(source) }
        g_dbus_connection_signal_unsubscribe(connection, subscription)
        g_object_unref(raw(connection))
        webkit_user_style_sheet_unref(pagesStyle)
    }

    /// The window's web view, whose text follows the desktop's text scale,
    /// and whose own pages its contrast.
    func follow(_ webView: UnsafeMutablePointer<WebKitWebView>) {
        webViews.append(webView)
        zoom(webView, applied.textZoom)
        if applied.pagesHighContrast { styleOwnPages(webView, highContrast: true) }
    }

    // MARK: Reading

    private func read(_ key: Key, method: PortalReadRule.Method) {
        let children: [OpaquePointer?] = [g_variant_new_string(key.namespace), g_variant_new_string(key.name)]
        let arguments = children.withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, 2) }
        // Auto-started: the portal is D-Bus activated in a session without
        // systemd, and answers within the timeout or not at all.
        g_dbus_connection_call(
            connection, Portal.name, Portal.path, Portal.settingsInterface, Self.name(of: method), arguments, nil,
            DFL_G_DBUS_CALL_FLAGS_NONE, BusCall.milliseconds(BusCall.waitedOn), nil, { source, result, data in
                let request = taken(data, as: ReadRequest.self)
                var error: UnsafeMutablePointer<GError>?
                let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, &error)
                request.watch.answered(request.key, method: request.method, reply: reply, error: error)
            }, retained(ReadRequest(watch: self, key: key, method: method)))
    }

    fileprivate final class ReadRequest {
        let watch: AppearanceWatch
        let key: Key
        let method: PortalReadRule.Method
        init(watch: AppearanceWatch, key: Key, method: PortalReadRule.Method) {
            self.watch = watch
            self.key = key
            self.method = method
        }
    }

    private func answered(_ key: Key, method: PortalReadRule.Method, reply: OpaquePointer?, error: UnsafeMutablePointer<GError>?) {
        var value: DesktopAppearance.Value?
        if let reply {
            value = Self.value(of: reply)
            g_variant_unref(reply)
        } else {
            let remote = takeGString(g_dbus_error_get_remote_error(error))
            let message = takeGError(error)
            switch PortalReadRule.afterFailure(of: method, Self.failure(remote), firstAnswer: unanswered == Key.allCases.count) {
            case .askAgain(let method):
                return read(key, method: method)
            case .unread(let log):
                if log { AppLog.log(.info, AppLogText.appearanceUnread(message)) }
            }
        }
        if !heard.contains(key) { appearance.set(key, value) }
        unanswered -= 1
        if unanswered == 0 { settle() }
    }

    /// SettingChanged `(ssv)`.
    private func settingChanged(_ parameters: OpaquePointer?) {
        guard let parameters, String(cString: g_variant_get_type_string(parameters)) == "(ssv)" else { return }
        let namespace = Self.string(parameters, 0)
        let name = Self.string(parameters, 1)
        guard let key = Key(namespace: namespace, name: name) else { return }
        let child = g_variant_get_child_value(parameters, 2)!
        let value = Self.value(of: child)
        g_variant_unref(child)
        if unanswered > 0 { heard.append(key) }
        guard appearance.set(key, value), unanswered == 0, burst.changed() == .askForIdle else { return }
        // At idle priority: the signals of a burst, already queued at the
        // default priority, are all read first.
        idleSource = g_idle_add_full(
            G_PRIORITY_DEFAULT_IDLE, { data in
                let watch = from(data, as: AppearanceWatch.self)
                watch.idleSource = 0
                watch.settle()
                return gboolean(0) // G_SOURCE_REMOVE
            }, unretained(self), nil)
    }

    /// Applies the style as it is now, unless the last application left it
    /// so or a period runs.
    private func settle() {
        switch burst.becameIdle(with: appearance) {
        case nil: break
        case .apply(let style, let period): applyAndWait(style, period)
        }
    }

    private func periodEnded() {
        switch burst.periodEnded(with: appearance) {
        case nil: break
        case .apply(let style, let period): applyAndWait(style, period)
        case .waitAgain(let period): wait(period)
        }
    }

    private func applyAndWait(_ style: DesktopAppearance, _ period: Duration) {
        log(style)
        apply()
        wait(period)
    }

    private func wait(_ period: Duration) {
        periodSource = g_timeout_add_full(
            G_PRIORITY_DEFAULT, guint(period.wholeMilliseconds), { data in
                let watch = from(data, as: AppearanceWatch.self)
                watch.periodSource = 0
                watch.periodEnded()
                return gboolean(0) // G_SOURCE_REMOVE
            }, unretained(self), nil)
    }

    /// The style's line, within its budget; one held back is written when
    /// the budget's period ends, with the style applied last.
    private func log(_ style: DesktopAppearance) {
        switch styleLog.refused(by: Self.styleCaller, now: SystemClock().now()) {
        case .log(let count):
            AppLog.log(.info, AppLogText.appearance(style) + AppLogText.appearanceCount(count))
            // What it waited for is in this line; the next hold starts a new wait.
            if flushSource != 0 { g_source_remove(flushSource) }
            flushSource = 0
        case .holdBack:
            guard flushSource == 0 else { return }
            flushSource = g_timeout_add_full(
                G_PRIORITY_DEFAULT, guint(Self.styleLines.period.wholeMilliseconds), { data in
                    let watch = from(data, as: AppearanceWatch.self)
                    watch.flushSource = 0
                    guard case .log(let count)? = watch.styleLog.periodEnded(for: AppearanceWatch.styleCaller, now: SystemClock().now()),
                          let applied = watch.burst.lastApplied
                    else { return gboolean(0) }
                    AppLog.log(.info, AppLogText.appearance(applied) + AppLogText.appearanceCount(count))
                    return gboolean(0) // G_SOURCE_REMOVE
                }, unretained(self), nil)
        }
    }

    private static func name(of method: PortalReadRule.Method) -> String {
        switch method {
        case .readOne: Portal.readOne
        case .read: Portal.read
        }
    }

    /// A failed call's remote error name, as PortalReadRule reads it.
    private static func failure(_ remoteError: String?) -> PortalReadRule.Failure {
        switch remoteError {
        case StandardInterface.Bus.unknownMethodError: .unknownMethod
        case Portal.notFoundError: .notFound
        default: .other
        }
    }

    private static func string(_ tuple: OpaquePointer, _ index: Int) -> String {
        let child = g_variant_get_child_value(tuple, gsize(index))!
        defer { g_variant_unref(child) }
        return String(cString: g_variant_get_string(child, nil))
    }

    /// The value inside a reply or a signal's variant, however many variants
    /// wrap it; nil for a type the app does not read.
    private static func value(of container: OpaquePointer) -> DesktopAppearance.Value? {
        var current = g_variant_ref(container)!
        // A reply is a tuple of one variant.
        if g_variant_is_container(current) != 0 && String(cString: g_variant_get_type_string(current)).hasPrefix("(") {
            guard g_variant_n_children(current) == 1 else {
                g_variant_unref(current)
                return nil
            }
            let child = g_variant_get_child_value(current, 0)!
            g_variant_unref(current)
            current = child
        }
        while String(cString: g_variant_get_type_string(current)) == "v" {
            let inner = g_variant_get_variant(current)!
            g_variant_unref(current)
            current = inner
        }
        defer { g_variant_unref(current) }
        switch String(cString: g_variant_get_type_string(current)) {
        case "u": return .unsigned(g_variant_get_uint32(current))
        case "i": return .signed(g_variant_get_int32(current))
        case "b": return .boolean(g_variant_get_boolean(current) != 0)
        case "d": return .double(g_variant_get_double(current))
        default: return nil
        }
    }

    // MARK: Carrying the appearance out

    private func apply() {
        let wanted = AppearanceRule.applied(for: appearance)
        guard let settings = gtk_settings_get_default() else { return }
        let object = UnsafeMutableRawPointer(settings).assumingMemoryBound(to: GObject.self)
        if wanted.colorScheme != applied.colorScheme {
            // GTK 4.20 and later draw the window by gtk-interface-color-scheme,
            // and WebKitGTK (2.52 still) tells the page by prefer-dark: both.
            let settingsClass = UnsafeMutablePointer<GObjectClass>(OpaquePointer(object.pointee.g_type_instance.g_class))
            if g_object_class_find_property(settingsClass, Self.colorSchemeProperty) != nil {
                set(object, settings, Self.colorSchemeProperty, wanted.colorScheme, type: "GtkInterfaceColorScheme") {
                    g_value_set_enum(&$0, Self.interfaceColorScheme($1))
                }
            }
            let dark: AppliedAppearance.Setting<Bool> = switch wanted.colorScheme {
            case .set(.preferDark): .set(true)
            case .set(.preferLight): .set(false)
            case .set(.noPreference), .keep: .keep
            }
            set(object, settings, "gtk-application-prefer-dark-theme", dark, type: "gboolean") {
                g_value_set_boolean(&$0, $1 ? 1 : 0)
            }
        }
        if wanted.themeName != applied.themeName {
            set(object, settings, "gtk-theme-name", wanted.themeName, type: "gchararray") { g_value_set_string(&$0, $1) }
        }
        if wanted.xftDPI != applied.xftDPI {
            set(object, settings, "gtk-xft-dpi", wanted.xftDPI, type: "gint") { g_value_set_int(&$0, gint($1)) }
        }
        if wanted.textZoom != applied.textZoom {
            webViews.forEach { zoom($0, wanted.textZoom) }
        }
        if wanted.pagesHighContrast != applied.pagesHighContrast {
            webViews.forEach { styleOwnPages($0, highContrast: wanted.pagesHighContrast) }
        }
        applied = wanted
    }

    /// GtkSettings:gtk-interface-color-scheme (GTK 4.20), found by name so
    /// that the app still builds against Debian 12's GTK 4.8.
    private static let colorSchemeProperty = "gtk-interface-color-scheme"

    /// GtkInterfaceColorScheme's DEFAULT, DARK and LIGHT.
    private static func interfaceColorScheme(_ scheme: DesktopAppearance.ColorScheme) -> gint {
        switch scheme {
        case .noPreference: 1
        case .preferDark: 2
        case .preferLight: 3
        }
    }

    /// One GtkSettings property set, or given back to the toolkit.
    private func set<T>(
        _ object: UnsafeMutablePointer<GObject>, _ settings: OpaquePointer, _ name: String,
        _ setting: AppliedAppearance.Setting<T>, type: String, _ fill: (inout GValue, T) -> Void
    ) {
        switch setting {
        case .keep:
            gtk_settings_reset_property(settings, name)
        case .set(let wanted):
            var value = GValue()
            g_value_init(&value, g_type_from_name(type))
            fill(&value, wanted)
            g_object_set_property(object, name, &value)
            g_value_unset(&value)
        }
    }

    private func styleOwnPages(_ webView: UnsafeMutablePointer<WebKitWebView>, highContrast: Bool) {
        let content = webkit_web_view_get_user_content_manager(webView)
        if highContrast {
            webkit_user_content_manager_add_style_sheet(content, pagesStyle)
        } else {
            webkit_user_content_manager_remove_style_sheet(content, pagesStyle)
        }
    }

    private func zoom(_ webView: UnsafeMutablePointer<WebKitWebView>, _ level: Double) {
        if level != 1 { webkit_settings_set_zoom_text_only(webkit_web_view_get_settings(webView), 1) }
        webkit_web_view_set_zoom_level(webView, level)
    }
}

/// On the GTK main thread only, where GLib calls it back: the compiler keeps it there.
@available(*, unavailable)
extension AppearanceWatch: Sendable {}

/// On the GTK main thread only, where GLib calls it back: the compiler keeps it there.
@available(*, unavailable)
extension AppearanceWatch.ReadRequest: Sendable {}
