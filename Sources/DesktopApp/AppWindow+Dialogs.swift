import CDFLWebKitGTK
import DesktopAppCore
import Glibc

/// The dialogs a page may open, carried out as DialogMachine decides: a
/// print, a file chooser or an authentication dialog is a window (or a
/// prompt) that no frame of another origin, and nothing while the window
/// is hidden, may bring up; a permission is always refused.
extension AppWindow {
    func guardDialogs() {
        dfl_connect_bool_pointer(webView, "permission-request", { _, request, data in
            let window = from(data, as: AppWindow.self)
            webkit_permission_request_deny(dfl_permission_request(request))
            _ = window.allows(.permission, origin: nil)
            return 1
        }, unretained(self), nil)
        dfl_connect_bool_pointer(webView, "print", { _, _, data in
            // Handled (nothing printed, no dialog) unless allowed.
            from(data, as: AppWindow.self).allows(.print, origin: nil) ? 0 : 1
        }, unretained(self), nil)
        dfl_connect_bool_pointer(webView, "run-file-chooser", { _, request, data in
            guard !from(data, as: AppWindow.self).allows(.fileChooser, origin: nil) else { return 0 }
            webkit_file_chooser_request_cancel(dfl_file_chooser_request(request))
            return 1
        }, unretained(self), nil)
        dfl_connect_bool_pointer(webView, "authenticate", { _, request, data in
            let authentication = dfl_authentication_request(request)
            var origin: String?
            if let security = webkit_authentication_request_get_security_origin(authentication) {
                origin = takeGString(webkit_security_origin_to_string(security))
                webkit_security_origin_unref(security)
            }
            // An origin WebKit could not name is no origin of the web app's.
            guard !from(data, as: AppWindow.self).allows(.authentication, origin: origin ?? "?") else { return 0 }
            webkit_authentication_request_cancel(authentication)
            return 1
        }, unretained(self), nil)
        dfl_connect_bool_pointer(webView, "script-dialog", { _, dialog, data in
            guard let dialog, !from(data, as: AppWindow.self).allows(.scriptDialog, origin: nil) else { return 0 }
            // Answered as a person who said no would; a page must not be
            // held by a question no one sees, and a page that is leaving
            // (the app's own navigation) goes.
            let script = OpaquePointer(dialog)
            switch webkit_script_dialog_get_dialog_type(script) {
            case WEBKIT_SCRIPT_DIALOG_CONFIRM: webkit_script_dialog_confirm_set_confirmed(script, 0)
            case WEBKIT_SCRIPT_DIALOG_BEFORE_UNLOAD_CONFIRM: webkit_script_dialog_confirm_set_confirmed(script, 1)
            default: break
            }
            return 1
        }, unretained(self), nil)
    }

    /// Whether DialogMachine lets `dialog` through now; a refusal is logged
    /// once per dialog, origin and minute.
    private func allows(_ dialog: PageDialog, origin: String?) -> Bool {
        switch dialogs.dialogAsked(dialog, origin: origin, windowShown: isVisible, at: Self.now()) {
        case .show:
            return true
        case .refuse(_, let log):
            if let log { AppLog.log(.notice, log) }
            return false
        }
    }
}
