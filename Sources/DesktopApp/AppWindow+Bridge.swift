import CDFLWebKitGTK
import DesktopAppCore
import Glibc
import SleepTimerCore

/// The page's transport to dfl-webview-bridge: two user scripts (see
/// BridgeScripts), one script message handler in an isolated world, and the
/// bridge as the app's child. Texts pass through the app in flight only:
/// they are never logged or kept.
extension AppWindow {
    func installBridge(relay: BridgeRelayRule, origin: APIOrigin, content: OpaquePointer, program: String) {
        let world = BridgeScripts.worldName
        withCStringArray(BridgeScripts.allowList(origin: origin)) { allowList in
            let isolated = webkit_user_script_new_for_world(
                BridgeScripts.isolatedWorldSource(origin: origin), WEBKIT_USER_CONTENT_INJECT_TOP_FRAME,
                WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, world, allowList, nil)
            webkit_user_content_manager_add_script(content, isolated)
            webkit_user_script_unref(isolated)
            let page = webkit_user_script_new(
                BridgeScripts.pageTransportSource(origin: origin), WEBKIT_USER_CONTENT_INJECT_TOP_FRAME,
                WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, allowList, nil)
            webkit_user_content_manager_add_script(content, page)
            webkit_user_script_unref(page)
        }
        dfl_connect_pointer(raw(content), "script-message-received::" + BridgeScripts.handlerName, { _, value, data in
            from(data, as: AppWindow.self).received(value.map { dfl_jsc_value($0) })
        }, unretained(self), nil)
        webkit_user_content_manager_register_script_message_handler(content, BridgeScripts.handlerName, world)

        let bridge = BridgeChild(program: program)
        bridge.onLine = { [unowned self] line in self.deliver(line) }
        bridge.onEnded = { [unowned self] in self.tellPageTheBridgeClosed() }
        self.bridge = bridge
        bridge.start()
    }

    /// A text the page sent: one line to the bridge, or dropped (and logged
    /// without its content).
    private func received(_ value: OpaquePointer?) {
        guard let relay else { return }
        var text: String?
        if let value, jsc_value_is_string(value) != 0 {
            text = takeGString(jsc_value_to_string(value))
        }
        switch relay.line(forMessage: text, pageURL: currentURI) {
        case .success(let line):
            if bridge?.send(line) != true {
                AppLog.log(.notice, AppLogText.droppedMessage(BridgeRelayRule.Drop.noBridge.reason))
                tellPageTheBridgeClosed()
            }
        case .failure(let drop):
            AppLog.log(.notice, AppLogText.droppedMessage(drop.reason))
        }
    }

    /// A line the bridge wrote, handed to the page if the web app shows.
    private func deliver(_ line: [UInt8]) {
        guard let relay else { return }
        switch relay.script(forLine: line, pageURL: currentURI) {
        case .success(let script):
            evaluateInBridgeWorld(script)
        case .failure(let drop):
            AppLog.log(.info, AppLogText.droppedReply(drop.reason))
        }
    }

    private func tellPageTheBridgeClosed() {
        guard relay != nil, policy?.isWebApp(currentURI) == true else { return }
        evaluateInBridgeWorld(BridgeRelayRule.closeScript)
    }

    private func evaluateInBridgeWorld(_ script: String) {
        webkit_web_view_evaluate_javascript(webView, script, -1, BridgeScripts.worldName, nil, nil, nil, nil)
    }
}
