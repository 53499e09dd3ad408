import SleepTimerCore

/// Where the agent's notifications go.
public enum NotificationSurfaceKind: String, Sendable, CaseIterable {
    /// The desktop's notification server, through libnotify: the .deb's way,
    /// with in-place updates, close reasons and the activation token.
    case server
    /// org.freedesktop.portal.Notification, called directly: inside a
    /// Flatpak, where libnotify's own portal path would turn Complete into
    /// a non-exported action that opens the app's window.
    case portal
}

/// Which notification surface the agent uses, from where it runs: the
/// portal inside a Flatpak, the server on the host. The environment may
/// force either (the tests put a host agent on the portal that way).
public enum NotificationSurfaceRule {
    /// The variable that forces a surface: `server` or `portal`.
    public static let overrideVariable = "DFL_NOTIFICATION_SURFACE"

    public struct UnknownSurface: Error, Equatable, CustomStringConvertible {
        public let value: String
        public init(value: String) { self.value = value }
        public var description: String {
            "\(NotificationSurfaceRule.overrideVariable)=\(value) names no notification surface; use "
                + NotificationSurfaceKind.allCases.map(\.rawValue).joined(separator: " or ") + "."
        }
    }

    /// `override` is the variable's value; unset or empty leaves the choice
    /// to `place`. A value that names no surface is refused, not guessed.
    public static func surface(at place: RunningPlace, override: String?) throws(UnknownSurface) -> NotificationSurfaceKind {
        if let override, !override.isEmpty {
            guard let kind = NotificationSurfaceKind(rawValue: override) else { throw UnknownSurface(value: override) }
            return kind
        }
        return place.isSandboxed ? .portal : .server
    }
}

extension NotificationServer {
    /// The notification portal as the plan's server. It answers for every
    /// backend (GNOME Shell, Plasma, the GTK backend's fdo server), so its
    /// traits are what holds for all of them: buttons (exported actions),
    /// a body that may be read either way (version 1 says plain text, but
    /// the GTK backend hands it to a server that may read markup, and KDE's
    /// to Plasma's rich text: see NotificationBody), Open as a button of its
    /// own (GNOME and Plasma draw none for the body), and an update taken
    /// as a new alert: an AddNotification with the same id may pop up
    /// again, and one the parent dismissed comes back; the portal tells the
    /// app nothing of a dismissal. So the elapsed time is not updated on
    /// the minute unless the configuration says `on`.
    public static func portal(owner: String, version: UInt32) -> NotificationServer {
        var traits = NotificationServerTraits(actions: true, bodyMarkup: false, alertsOnUpdate: true)
        traits.needsOpenButton = true
        traits.bodyMayBeMarkup = true
        var server = NotificationServer(owner: owner, displayName: "portal \(version)", traits: traits)
        server.surface = .portal
        return server
    }
}
