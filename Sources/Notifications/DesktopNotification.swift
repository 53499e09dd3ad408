import CDFLNotify
import SleepTimerCore
import SleepTimersAPI

/// One libnotify notification. Action clicks and closes come back through
/// libnotify's GDBus proxy, which passes on only the signals of the current
/// owner of org.freedesktop.Notifications, and only for this notification's
/// id.
///
/// Not Sendable: made, changed and released on the notifications' thread
/// only (NotificationThread's objects), whose GLib context libnotify's
/// proxy delivers its signals on.
final class DesktopNotification {
    private let raw: UnsafeMutablePointer<NotifyNotification>
    private var closedHandler: gulong = 0

    /// A click on an action, with the activation token the server sent
    /// along (valid only during the call).
    var onAction: ((NotificationAction, String?) -> Void)?
    /// The notification was closed; the reason is the server's, one of
    /// NotificationCloseReason.
    var onClosed: ((Int32) -> Void)?

    static let appName = AppIdentity.name
    /// The desktop entry of the agent (packaging installs it), so that the
    /// desktop can group the notifications and find their icon.
    static let desktopEntry = AppIdentity.agentID
    /// A vendor category, as the specification asks for categories of our own.
    static let category = "x-dreamsforlittles.sleep-timer"

    init(_ content: NotificationContent) {
        raw = notify_notification_new(content.summary, content.body, NotificationContent.appIcon)
        notify_notification_set_app_name(raw, Self.appName)
        notify_notification_set_category(raw, Self.category)
        notify_notification_set_hint(raw, "desktop-entry", g_variant_new_string(Self.desktopEntry))
        // A baby is asleep: no sound, ever.
        notify_notification_set_hint(raw, "suppress-sound", g_variant_new_boolean(1))
        let box = Unmanaged.passRetained(WeakNotification(self)).toOpaque()
        closedHandler = dfl_notification_connect_closed(
            raw,
            { notification, data in
                guard let notification, let owner = Unmanaged<WeakNotification>.fromOpaque(data!).takeUnretainedValue().target
                else { return }
                owner.onClosed?(notify_notification_get_closed_reason(notification))
            }, box, { data, _ in Unmanaged<WeakNotification>.fromOpaque(data!).release() })
        apply(content)
    }

    deinit {
        g_signal_handler_disconnect(raw, closedHandler)
        notify_notification_clear_actions(raw)
        g_object_unref(raw)
    }

    /// The server's id, 0 before the first show and after a close.
    var id: UInt32 {
        get { dfl_notification_get_id(raw) }
        set { dfl_notification_set_id(raw, newValue) }
    }

    /// Sets text, actions and lifetime; `show()` sends them.
    func apply(_ content: NotificationContent) {
        notify_notification_update(raw, content.summary, content.body, NotificationContent.appIcon)
        notify_notification_set_urgency(raw, NotifyUrgency(rawValue: UInt32(content.urgency.rawValue)))
        notify_notification_clear_actions(raw)
        for action in content.actions {
            let box = Unmanaged.passRetained(WeakNotification(self)).toOpaque()
            notify_notification_add_action(
                raw, action.rawValue, action.label,
                { notification, key, data in
                    guard let notification, let key, let action = NotificationAction(key: String(cString: key)),
                        let owner = Unmanaged<WeakNotification>.fromOpaque(data!).takeUnretainedValue().target
                    else { return }
                    let token = notify_notification_get_activation_token(notification).map { String(cString: $0) }
                    owner.onAction?(action, token)
                }, box, { data in Unmanaged<WeakNotification>.fromOpaque(data!).release() })
        }
        // libnotify takes the timeout in milliseconds, 0 for "never".
        notify_notification_set_timeout(
            raw, content.persistent ? 0 : Int32(clamping: NotificationContent.transientTimeout.wholeMilliseconds))
        notify_notification_set_hint(raw, "resident", content.persistent ? g_variant_new_boolean(1) : nil)
        notify_notification_set_hint(raw, "transient", content.persistent ? nil : g_variant_new_boolean(1))
    }

    /// Posts or updates the notification on the server (in place once it
    /// has an id).
    func show() throws(NotificationError) {
        var error: UnsafeMutablePointer<GError>?
        guard notify_notification_show(raw, &error) != 0 else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            g_clear_error(&error)
            throw NotificationError(message: message)
        }
    }

    func close() {
        var error: UnsafeMutablePointer<GError>?
        if notify_notification_close(raw, &error) == 0 { g_clear_error(&error) }
    }
}

/// A reference from a C callback's user data that does not keep the
/// notification alive; read on the notifications' thread only, where the
/// signal comes.
private final class WeakNotification {
    weak var target: DesktopNotification?
    init(_ target: DesktopNotification) { self.target = target }
}

@available(*, unavailable, message: "It is read on the notifications' thread only, as its notification is used.")
extension WeakNotification: Sendable {}

struct NotificationError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

@available(*, unavailable, message: "libnotify objects live on the notifications' thread only.")
extension DesktopNotification: Sendable {}
