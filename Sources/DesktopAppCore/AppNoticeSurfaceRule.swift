import SleepTimerCore

/// Which of GIO's notification backends carries the app's own notices
/// (GNotification: "keeps running while Maya's sleep is on the desktop"),
/// and so whether their body is read as markup there.
///
/// GIO picks the backend itself, once, at the first notice: the one named by
/// `GNOTIFICATION_BACKEND` when it is supported, else the first supported of
/// the portal (in a sandbox, or with `GTK_USE_PORTAL=1`), GNOME Shell's
/// org.gtk.Notifications (when that name has an owner) and
/// org.freedesktop.Notifications. GNOME Shell shows an org.gtk body as plain
/// text; the portal's `body` is plain text on GNOME, markup for the server
/// the GTK backend hands it to, and rich text on Plasma, so it leaves out
/// what would start markup; org.freedesktop.Notifications reads markup when
/// it advertises body-markup. The app reads the same facts just before its
/// first notice and writes the body through NotificationBody as that
/// surface reads it, taking a server that cannot be asked as one that reads
/// markup.
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

    /// How a body sent on `surface` is read. `capabilities` is
    /// org.freedesktop.Notifications' GetCapabilities answer, nil when it
    /// could not be had: then the body is taken as markup, since a literal
    /// "&amp;" is a lesser harm than a name drawn as a link.
    public static func reading(on surface: Surface, capabilities: [String]?) -> NotificationBody.Reading {
        switch surface {
        case .portal: return .eitherWay
        case .gtk: return .plainText
        case .freedesktop: return capabilities?.contains("body-markup") ?? true ? .markup : .plainText
        }
    }

    /// The body of a notice, as `surface` shows it.
    public static func body(_ text: String, on surface: Surface, capabilities: [String]?) -> String {
        NotificationBody.text(text, readAs: reading(on: surface, capabilities: capabilities))
    }
}
