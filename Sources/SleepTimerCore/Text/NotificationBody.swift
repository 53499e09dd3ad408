/// A notification's body as the surface that shows it reads it, so that a
/// baby's name such as `<a href="…">Maya</a>` (and any other text from the
/// platform or a caller) is never drawn as a link, an image or bold text:
///
/// - read as markup (a server that advertises body-markup): the five markup
///   characters escaped, so the name shows exactly as written;
/// - plain text (a server without body-markup, GNOME Shell's
///   org.gtk.Notifications): left as written, where an entity would show
///   literally;
/// - either way (the notification portal): the app cannot know which backend
///   reads it. GNOME's shows plain text, the GTK one hands it unchanged to
///   org.freedesktop.Notifications (markup on xfce4-notifyd and MATE), and
///   KDE's to KNotification::setText (rich text on Plasma). An escape would
///   show "&lt;" on GNOME, and plain text would be a link on Plasma, so the
///   characters that start markup (`<`, `>`, `&`) are replaced by their
///   fullwidth look-alikes (＜ ＞ ＆): the name stays readable, nothing can
///   open a tag or an entity, and no reader shows an escape. Quotes need no
///   replacing: they mean something only inside a tag.
///
/// The agent's notifications and the app's own notices both go through it.
/// A summary is plain text everywhere (the specification's), so it never is.
public enum NotificationBody {
    /// How a surface reads a notification's body.
    public enum Reading: Sendable, Equatable {
        case plainText
        case markup
        case eitherWay
    }

    public static func text(_ text: String, readAs reading: Reading) -> String {
        switch reading {
        case .plainText: return text
        case .markup: return DisplayText.escapeMarkup(text)
        case .eitherWay: return withoutMarkupCharacters(text)
        }
    }

    /// `<`, `>` and `&` replaced by FULLWIDTH LESS-THAN SIGN, GREATER-THAN
    /// SIGN and AMPERSAND, which no markup reader takes for its own.
    public static func withoutMarkupCharacters(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "<": result.unicodeScalars.append("\u{FF1C}")
            case ">": result.unicodeScalars.append("\u{FF1E}")
            case "&": result.unicodeScalars.append("\u{FF06}")
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
