import CDFLWebKitGTK
import DesktopAppCore

/// What the window tells assistive technology: its controls' names and
/// descriptions, and where the person is.
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
}
