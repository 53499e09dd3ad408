/// A notification's body as the surface that shows it reads it: escaped
/// where it is read as markup, as it is where the server advertises
/// body-markup, so that a baby's name such as `<a href="…">Maya</a>` shows
/// as those characters and never as a link, an image or bold text; left as
/// it is where it is plain text (the notification portal's `body`, GNOME
/// Shell's org.gtk.Notifications), where an entity would show literally.
/// The agent's notifications and the app's own notices both go through it.
/// A summary is plain text everywhere (the specification's), so it never is.
public enum NotificationBody {
    public static func text(_ text: String, readAsMarkup: Bool) -> String {
        readAsMarkup ? DisplayText.escapeMarkup(text) : text
    }
}
