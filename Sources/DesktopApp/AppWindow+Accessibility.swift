import CDFLWebKitGTK
import DesktopAppCore
import Glibc

/// What the window tells assistive technology: its controls' names and
/// descriptions, where the person is, and what just happened.
extension AppWindow {
    /// Names a control for a screen reader, in the reader's language.
    func describe(_ widget: UnsafeMutablePointer<GtkWidget>, _ control: AppAccessibleText.Control) {
        dfl_accessible_describe(widget, control.name, control.description)
    }

    /// The title follows the page's, the web app's and the app's own pages'
    /// alike, so a screen reader and the window list say where the person is.
    func updateTitle() {
        let title = webkit_web_view_get_title(webView).map { String(cString: $0) }
        gtk_window_set_title(window, AppWindowTitle.title(pageTitle: title))
    }

    /// Says `text` through the screen reader, from the window, after what it
    /// is reading (SaveAnnouncementMachine decides when). Where GTK cannot (before
    /// 4.14) nothing is said and nothing is logged: the save is still shown
    /// by the page and the notification.
    func announce(_ text: String) {
        guard let announce = Self.gtkAnnounce else { return }
        announce(UnsafeMutableRawPointer(window), text, Self.announcementPriorityMedium)
    }

    /// `gtk_accessible_announce(GtkAccessible *, const char *,
    /// GtkAccessibleAnnouncementPriority)`, GTK 4.14 and later, looked up at
    /// run time: the app is built against Debian 12's GTK 4.8, which lacks
    /// it, and runs on Debian 13's 4.18, which has it; a link-time reference
    /// would keep the binary from starting on 4.8.
    private static let gtkAnnounce: (@convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, Int32) -> Void)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "gtk_accessible_announce") else { return nil }
        return unsafeBitCast(
            symbol, to: (@convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, Int32) -> Void).self)
    }()

    /// GTK_ACCESSIBLE_ANNOUNCEMENT_PRIORITY_MEDIUM, which 4.8's headers do
    /// not have: AT-SPI's "polite".
    private static let announcementPriorityMedium: Int32 = 1
}
