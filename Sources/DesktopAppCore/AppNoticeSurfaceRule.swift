import SleepTimerCore

/// Which of GIO's notification backends carries the app's own notices
/// (GNotification: "keeps running while Maya's sleep is on the desktop"),
/// and so whether their body is read as markup there.
///
/// GIO picks the backend itself, once, at the first notice: the one named by
/// `GNOTIFICATION_BACKEND` when it is supported, else the first supported of
/// the portal (in a sandbox, or with `GTK_USE_PORTAL=1`), GNOME Shell's
/// org.gtk.Notifications (when that name has an owner) and
/// org.freedesktop.Notifications. Only the last one passes the body on to a
/// server that may read it as markup (GNOME Shell shows an org.gtk body and
/// the portal's `body` as plain text, where an escaped name would show
/// "&lt;"); the app reads the same facts just before its first notice and
/// escapes the body through NotificationBody when that server advertises
/// body-markup, or cannot be asked.
public enum AppNoticeSurfaceRule {
    /// GIO's backends, by their extension names, in GIO's order.
    public enum Surface: String, Sendable, Equatable, CaseIterable {
        case portal
        case gtk
        case freedesktop
    }

    /// GIO's choice: `forced` is the environment's GNOTIFICATION_BACKEND
    /// (GIO's extension names), `portalPreferred` whether GIO would use the
    /// portal, `gtkServerPresent` whether org.gtk.Notifications has an owner.
    public static func surface(forced: String?, portalPreferred: Bool, gtkServerPresent: Bool) -> Surface {
        func supported(_ surface: Surface) -> Bool {
            switch surface {
            case .portal: return portalPreferred
            case .gtk: return gtkServerPresent
            case .freedesktop: return true
            }
        }
        if let forced, let surface = Surface(rawValue: forced), supported(surface) { return surface }
        return Surface.allCases.first(where: supported) ?? .freedesktop
    }

    /// Whether a body sent on `surface` is read as markup. `capabilities`
    /// is org.freedesktop.Notifications' GetCapabilities answer, nil when
    /// it could not be had: then the body is taken as markup, since a
    /// literal "&amp;" is a lesser harm than a name drawn as a link.
    public static func readsMarkup(on surface: Surface, capabilities: [String]?) -> Bool {
        switch surface {
        case .portal, .gtk: return false
        case .freedesktop: return capabilities?.contains("body-markup") ?? true
        }
    }

    /// The body of a notice, as `surface` shows it.
    public static func body(_ text: String, on surface: Surface, capabilities: [String]?) -> String {
        NotificationBody.text(text, readAsMarkup: readsMarkup(on: surface, capabilities: capabilities))
    }
}
