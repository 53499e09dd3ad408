import CDFLWebKitGTK
import DesktopAppCore
import Glibc
import SleepTimerCore
import SleepTimersAPI

/// What the window loads, what it refuses, and how it recovers, carried
/// out as PageLoadMachine decides.
extension AppWindow {
    func configureView() {
        let settings = webkit_web_view_get_settings(webView)
        webkit_settings_set_enable_developer_extras(settings, 0)
        webkit_settings_set_javascript_can_open_windows_automatically(settings, 0)
        webkit_settings_set_user_agent_with_application_details(settings, "DreamsForLittlesDesktop", AppIdentity.version)
        dfl_connect_policy(webView, "decide-policy", { _, decision, type, data in
            from(data, as: AppWindow.self).decide(decision!, type: type)
        }, unretained(self), nil)
        dfl_connect_int(webView, "load-changed", { _, event, data in
            from(data, as: AppWindow.self).loadChanged(event)
        }, unretained(self), nil)
        dfl_connect_load_failed(webView, "load-failed", { _, _, uri, error, data in
            from(data, as: AppWindow.self).loadFailed(uri.map { String(cString: $0) }, error)
        }, unretained(self), nil)
        dfl_connect_tls_failed(webView, "load-failed-with-tls-errors", { _, uri, certificate, _, data in
            from(data, as: AppWindow.self).tlsFailed(uri.map { String(cString: $0) } ?? "", certificate)
        }, unretained(self), nil)
        guardDialogs()
        dfl_connect_int(webView, "web-process-terminated", { _, reason, data in
            from(data, as: AppWindow.self).webProcessEnded(reason)
        }, unretained(self), nil)
        dfl_connect_pointer(webView, "notify::uri", { _, _, data in
            from(data, as: AppWindow.self).updateBackButton()
        }, unretained(self), nil)
        dfl_connect_pointer(webView, "notify::title", { _, _, data in
            from(data, as: AppWindow.self).updateTitle()
        }, unretained(self), nil)
        dfl_connect_int(raw(g_network_monitor_get_default()), "network-changed", { _, available, data in
            if available != 0 { from(data, as: AppWindow.self).retryNowIfWaiting() }
        }, unretained(self), nil)
    }

    /// The first page: the web app, or the app's own page naming the
    /// configuration's mistake.
    func showStart() {
        switch page.started() {
        case .load(let url):
            load(url)
        case .show(let html):
            webkit_web_view_load_html(webView, html, nil)
        }
    }

    /// Opens a link's route in the window.
    func open(_ link: AppDeepLink) {
        switch page.linkOpened(link) {
        case .refuse:
            AppLog.log(.notice, AppLogText.refusedLinkConfigurationUnusable)
            showNotice(AppText.linkRefusedConfigurationUnusable)
        case .load(let url):
            load(url)
            AppLog.log(.info, AppLogText.openedLink(url))
        }
    }

    /// Loads `url` as what the window means to show.
    func load(_ url: String) {
        for action in page.loading(url) {
            switch action {
            case .cancelRetry:
                cancelRetry()
            case .load(let url):
                AppLog.log(.info, AppLogText.loading(url))
                webkit_web_view_load_uri(webView, url)
            }
        }
    }

    func reload() {
        switch page.reloadAsked() {
        case .load(let url): load(url)
        case .reloadPage: webkit_web_view_reload(webView)
        }
    }

    /// Back, where BackRule says: past the app's own pages and retries at
    /// the address shown now.
    func goBack() {
        guard let distance = BackRule.distance(current: currentURI, history: backHistory()),
            let list = webkit_web_view_get_back_forward_list(webView),
            let item = webkit_back_forward_list_get_nth_item(list, -Int32(distance))
        else { return }
        webkit_web_view_go_to_back_forward_list_item(webView, item)
    }

    func updateBackButton() {
        gtk_widget_set_sensitive(backButton, BackRule.distance(current: currentURI, history: backHistory()) == nil ? 0 : 1)
    }

    /// The history's addresses before the page shown now, the nearest
    /// first (WebKit keeps at most a hundred; more are not looked at).
    private func backHistory() -> [String?] {
        guard let list = webkit_web_view_get_back_forward_list(webView) else { return [] }
        var addresses: [String?] = []
        while addresses.count < 128,
            let item = webkit_back_forward_list_get_nth_item(list, -Int32(addresses.count + 1))
        {
            addresses.append(webkit_back_forward_list_item_get_uri(item).map { String(cString: $0) })
        }
        return addresses
    }

    var currentURI: String? { webkit_web_view_get_uri(webView).map { String(cString: $0) } }

    // MARK: Navigation policy

    /// The top frame's script that says which links a person clicked there
    /// (BridgeScripts.topFrameClicksSource): WebKitGTK does not say which
    /// frame a navigation is for, and only such a click may leave the app.
    func installClickReporter(origin: APIOrigin, content: OpaquePointer) {
        withCStringArray(BridgeScripts.allowList(origin: origin)) { allowList in
            let script = webkit_user_script_new_for_world(
                BridgeScripts.topFrameClicksSource(origin: origin), WEBKIT_USER_CONTENT_INJECT_TOP_FRAME,
                WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, BridgeScripts.worldName, allowList, nil)
            webkit_user_content_manager_add_script(content, script)
            webkit_user_script_unref(script)
        }
        dfl_connect_pointer(raw(content), "script-message-received::" + BridgeScripts.clicksHandlerName, { _, value, data in
            from(data, as: AppWindow.self).clicked(value.map { dfl_jsc_value($0) })
        }, unretained(self), nil)
        webkit_user_content_manager_register_script_message_handler(
            content, BridgeScripts.clicksHandlerName, BridgeScripts.worldName)
    }

    /// A person's click in the top frame: on a link (its URL), or on
    /// anything else (an empty string), which may lead to a print or a file
    /// chooser (DialogMachine).
    private func clicked(_ value: OpaquePointer?) {
        guard let value, jsc_value_is_string(value) != 0, let url = takeGString(jsc_value_to_string(value)) else { return }
        dialogs.personClickedInTopFrame(at: Self.now())
        if !url.isEmpty { launches?.clickedInTopFrame(url, at: Self.now()) }
    }

    /// The app's monotonic clock, to the millisecond: GLib counts
    /// microseconds.
    static func now() -> MonotonicInstant { MonotonicInstant(milliseconds: Int64(g_get_monotonic_time() / 1000)) }

    /// Only the web app shows in the window, and only a person's click in
    /// it leaves for the browser (LaunchMachine, NavigationRule).
    private func decide(_ decision: gpointer, type: gint) -> gboolean {
        guard launches != nil else { return 0 }
        let moment: NavigationMoment
        let url: String
        switch WebKitPolicyDecisionType(rawValue: UInt32(type)) {
        case WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION, WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION:
            let action = webkit_navigation_policy_decision_get_navigation_action(dfl_navigation_decision(decision))
            url = webkit_uri_request_get_uri(webkit_navigation_action_get_request(action)).map { String(cString: $0) } ?? ""
            let gesture = webkit_navigation_action_is_user_gesture(action) != 0
            moment = type == Int32(WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION.rawValue)
                ? .newWindow(userGesture: gesture) : .navigation(userGesture: gesture)
        case WEBKIT_POLICY_DECISION_TYPE_RESPONSE:
            // A frame's response is the frame's: WebKit shows it there, and
            // an attachment becomes a download, which is refused.
            let response = OpaquePointer(decision)
            guard webkit_response_policy_decision_is_main_frame_main_resource(response) != 0 else { return 0 }
            url = webkit_uri_request_get_uri(webkit_response_policy_decision_get_request(response)).map { String(cString: $0) } ?? ""
            moment = .mainFrameResponse
        default:
            return 0
        }
        guard let action = launches?.navigationAsked(url, at: moment, now: Self.now()) else { return 0 }
        return apply(action, to: decision) ? 1 : 0
    }

    /// Performs a decision; true when it was taken here (WebKit must not
    /// decide by itself).
    private func apply(_ action: LaunchMachine.NavigationAskedAction, to policyDecision: gpointer) -> Bool {
        switch action {
        case .load:
            return false
        case .loadInWindow(let url):
            webkit_policy_decision_ignore(dfl_policy_decision(policyDecision))
            load(url)
        case .openOutside(let url):
            webkit_policy_decision_ignore(dfl_policy_decision(policyDecision))
            opener.open(url)
        case .openLink(let link):
            webkit_policy_decision_ignore(dfl_policy_decision(policyDecision))
            open(link)
        case .refuse(_, let log):
            if let log { AppLog.log(.notice, log) }
            webkit_policy_decision_ignore(dfl_policy_decision(policyDecision))
        }
        return true
    }

    /// A download WebKit started was cancelled (WebsiteSession): logged by
    /// its origin only, once a minute for each.
    func downloadRefused(_ url: String?) {
        guard launches != nil else {
            return AppLog.log(.notice, AppLogText.refusedDownload(url.flatMap(WebURL.init)?.source ?? "?"))
        }
        if case .log(let line)? = launches?.downloadRefused(from: url, at: Self.now()) { AppLog.log(.notice, line) }
    }

    // MARK: Loading, failing, trying again

    private func loadChanged(_ event: gint) {
        switch WebKitLoadEvent(rawValue: UInt32(event)) {
        case WEBKIT_LOAD_STARTED:
            page.loadStarted()
        case WEBKIT_LOAD_FINISHED:
            updateBackButton()
            page.loadFinished(at: currentURI)
        default:
            break
        }
    }

    private func loadFailed(_ uri: String?, _ error: UnsafeMutablePointer<GError>?) -> gboolean {
        let failure: LoadFailure? = error.map { error in
            if error.pointee.domain == webkit_network_error_quark() && error.pointee.code == Int32(WEBKIT_NETWORK_ERROR_CANCELLED.rawValue) {
                .cancelled
            } else if error.pointee.domain == webkit_policy_error_quark() {
                .stoppedByPolicy
            } else {
                .failed
            }
        }
        switch page.loadFailed(at: uri, failure) {
        case .letWebKitHandle:
            return 0
        case .showNothing:
            return 1
        case .showOffline(let html, let uri, let delay):
            let message = error?.pointee.message.map { String(cString: $0) } ?? "unknown error"
            AppLog.log(.warning, AppLogText.pageFailed(uri, message))
            showOwnPage(html, at: uri, retryAfter: delay)
            return 1
        }
    }

    private func tlsFailed(_ uri: String, _ certificate: UnsafeMutablePointer<GTlsCertificate>?) -> gboolean {
        switch page.certificateRefused(at: uri, certificateGiven: certificate != nil) {
        case .letWebKitHandle:
            return 0
        case .showNothing:
            return 1
        case .checkConfiguredAuthorities(let host, let port):
            guard let certificate else { return 0 }
            let trusted = website.acceptWithConfiguredAuthorities(certificate, host: host, port: port)
            switch page.authoritiesAnswered(host: host, trusted: trusted, at: uri) {
            case .load(let url):
                load(url)
            case .showInsecure(let html, let uri, let delay):
                showInsecure(html, at: uri, retryAfter: delay)
            }
            return 1
        case .showInsecure(let html, let uri, let delay):
            showInsecure(html, at: uri, retryAfter: delay)
            return 1
        }
    }

    private func showInsecure(_ html: String, at uri: String, retryAfter delay: Duration) {
        AppLog.log(.warning, AppLogText.pageFailed(uri, "certificate not trusted"))
        showOwnPage(html, at: uri, retryAfter: delay)
    }

    private func webProcessEnded(_ reason: gint) {
        AppLog.log(.warning, AppLogText.webProcessEnded(reason == Int32(WEBKIT_WEB_PROCESS_CRASHED.rawValue) ? "crashed" : "ended"))
        switch page.webProcessEnded() {
        case .load(let url): load(url)
        case .start: showStart()
        }
    }

    /// Shows one of the app's own pages at `uri` and loads the web app
    /// again after `delay` (the retry waiting before is replaced).
    private func showOwnPage(_ html: String, at uri: String, retryAfter delay: Duration) {
        cancelRetry()
        let seconds = delay.components.seconds
        AppLog.log(.info, AppLogText.retryIn(Int(seconds)))
        retrySource = g_timeout_add_seconds(guint(seconds), { data in
            let window = from(data, as: AppWindow.self)
            window.retrySource = 0
            switch window.page.retryDue() {
            case .load(let url): window.load(url)
            case nil: break
            }
            return 0
        }, unretained(self))
        webkit_web_view_load_alternate_html(webView, html, uri, nil)
    }

    private func cancelRetry() {
        if retrySource != 0 { g_source_remove(retrySource) }
        retrySource = 0
    }

    /// The network came back while the offline page waited: try now.
    private func retryNowIfWaiting() {
        switch page.networkCameBack() {
        case .load(let url): load(url)
        case nil: break
        }
    }
}
