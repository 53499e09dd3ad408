import CDFLWebKitGTK
import DesktopAppCore

/// The keyboard's way through the window: Tab and Shift+Tab cycle through
/// the header bar and the page, with the focus always on something seen.
extension AppWindow {
    /// WebKitGTK parents a GtkTextView to its web view, unseen, to read
    /// GTK's key bindings for editing commands. GTK's focus chain took it as
    /// the web view's one focusable child: past the page's last control Tab
    /// landed there, unnamed, and every further Tab typed a tab into it. It
    /// still reads the key bindings without the focus.
    func keepHiddenControlsOutOfTheFocusChain() {
        var child = gtk_widget_get_first_child(dfl_gtk_widget(webView))
        while let widget = child {
            if dfl_is_text_view(widget) != 0 {
                gtk_widget_set_can_focus(widget, 0)
                gtk_widget_set_focusable(widget, 0)
                dfl_accessible_hide(widget)
            }
            child = gtk_widget_get_next_sibling(widget)
        }
    }

    /// Tab and Shift+Tab, seen before any widget sees them (TabFocusMachine says
    /// why each goes where).
    func handleTabs() {
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        dfl_connect_key(raw(keys), "key-pressed", { controller, keyval, _, modifiers, data in
            from(data, as: AppWindow.self).tabPressed(dfl_event_controller(controller), keyval: keyval, modifiers: modifiers)
        }, unretained(self), nil)
        gtk_widget_add_controller(dfl_gtk_widget(window), keys)
    }

    private func tabPressed(_ controller: OpaquePointer?, keyval: guint, modifiers: GdkModifierType) -> gboolean {
        let tabs = [guint(GDK_KEY_Tab), guint(GDK_KEY_KP_Tab), guint(GDK_KEY_ISO_Left_Tab)]
        let others = GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue | GDK_SUPER_MASK.rawValue
        // Ctrl+Tab and the like keep GTK's meaning.
        guard tabs.contains(keyval), modifiers.rawValue & others == 0 else { return 0 }
        let time = gdk_event_get_time(gtk_event_controller_get_current_event(controller))
        let view = dfl_gtk_widget(webView)
        switch tabFocus.tabPressed(time: UInt32(time), focusInPage: isInPage(gtk_window_get_focus(window))) {
        case .toPage:
            return 0
        case .drop:
            // WebKit moved the focus to the header bar: GTK is to show it there.
            gtk_window_set_focus_visible(window, 1)
            return 1
        case .moveFocus:
            let backward = keyval == guint(GDK_KEY_ISO_Left_Tab) || modifiers.rawValue & GDK_SHIFT_MASK.rawValue != 0
            gtk_window_set_focus_visible(window, 1)
            if gtk_widget_child_focus(dfl_gtk_widget(window), backward ? GTK_DIR_TAB_BACKWARD : GTK_DIR_TAB_FORWARD) == 0 {
                gtk_window_set_focus(window, nil)
            }
            if isInPage(gtk_window_get_focus(window)) {
                tabFocus.gaveToPage(time: UInt32(time))
                _ = gtk_event_controller_key_forward(controller, view)
            }
            return 1
        }
    }

    private func isInPage(_ widget: UnsafeMutablePointer<GtkWidget>?) -> Bool {
        guard let widget else { return false }
        let view = dfl_gtk_widget(webView)
        return widget == view || gtk_widget_is_ancestor(widget, view) != 0
    }
}
