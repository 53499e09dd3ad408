import CDFLWebKitGTK
import DesktopAppCore
import Glibc

/// The menu's Sign out, carried out (SignOut says what and why).
extension AppWindow {
    func signOut() {
        AppLog.log(.info, AppLogText.signingOut)
        _ = bridge?.send(SignOut.bridgeLine)
        webkit_web_view_stop_loading(webView)
        guard let manager = webkit_network_session_get_website_data_manager(website.session) else {
            AppLog.log(.warning, AppLogText.signOutFailed("WebKit gave no website data manager"))
            return showStart()
        }
        // Every type, of every time (a time span of 0).
        webkit_website_data_manager_clear(manager, WEBKIT_WEBSITE_DATA_ALL, 0, nil, { source, result, data in
            let window = taken(data, as: AppWindow.self)
            var error: UnsafeMutablePointer<GError>?
            if webkit_website_data_manager_clear_finish(OpaquePointer(source), result, &error) != 0 {
                AppLog.log(.info, AppLogText.signedOut)
            } else {
                AppLog.log(.warning, AppLogText.signOutFailed(takeGError(error)))
            }
            window.showStart()
        }, retained(self))
    }
}
