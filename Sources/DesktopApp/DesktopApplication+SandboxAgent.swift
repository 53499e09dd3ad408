import BusNames
import CDFLWebKitGTK
import DesktopAppCore
import Glibc
import SleepTimerCore

/// The agent started and kept running inside the Flatpak: SandboxAgentMachine
/// decides (on the host it decides nothing), this carries it out with the
/// Background portal and D-Bus activation, on the app's own connection.
extension DesktopApplication {
    func startSandboxAgent(startAtLogin: Bool) {
        let askedBefore = g_file_test(paths.backgroundAsked, DFL_G_FILE_TEST_EXISTS) != 0
        for action in sandboxAgent.started(place, startAtLogin: startAtLogin, askedBefore: askedBefore) {
            switch action {
            case .requestBackground(let commandLine, let autostart):
                requestBackground(commandLine: commandLine, autostart: autostart)
            case .startAgent(let busName):
                AppLog.log(.info, AppLogText.startingAgent(busName, .appStarted))
                startAgent(busName)
            }
        }
    }

    func sandboxAgentVanished() {
        switch sandboxAgent.agentVanished() {
        case nil:
            break
        case .startAgent(let busName):
            AppLog.log(.info, AppLogText.startingAgent(busName, .agentVanished))
            startAgent(busName)
        case .restartLimitReached(let restarts):
            AppLog.log(.notice, AppLogText.sandboxReport(.restartLimitReached(restarts)))
        }
    }

    fileprivate func backgroundAnswered(allowed: Bool, autostart: Bool) {
        switch sandboxAgent.backgroundAnswered(allowed: allowed, autostart: autostart) {
        case nil:
            break
        case .autostartOn:
            AppLog.log(.notice, AppLogText.sandboxReport(.autostartOn))
        case .autostartNotWritten:
            AppLog.log(.notice, AppLogText.sandboxReport(.autostartNotWritten))
        case .autostartOff:
            AppLog.log(.notice, AppLogText.sandboxReport(.autostartOff))
        case .backgroundRefused:
            AppLog.log(.notice, AppLogText.sandboxReport(.backgroundRefused))
        }
    }

    fileprivate func backgroundFailed(_ reason: String) {
        switch sandboxAgent.backgroundFailed(reason) {
        case nil:
            break
        case .portalUnavailable(let why):
            AppLog.log(.notice, AppLogText.sandboxReport(.portalUnavailable(why)))
        }
    }

    /// org.freedesktop.DBus.StartServiceByName: the bus starts the agent
    /// from the service file the Flatpak exports, unless it runs already.
    private func startAgent(_ busName: String) {
        guard let connection = g_application_get_dbus_connection(dfl_g_application(application)) else { return }
        var arguments: [OpaquePointer?] = [g_variant_new_string(busName), g_variant_new_uint32(0)]
        let replyType = g_variant_type_new("(u)")
        defer { g_variant_type_free(replyType) }
        g_dbus_connection_call(
            connection, StandardInterface.Bus.name, StandardInterface.Bus.path, StandardInterface.Bus.name,
            "StartServiceByName", g_variant_new_tuple(&arguments, gsize(arguments.count)), replyType,
            DFL_G_DBUS_CALL_FLAGS_NONE, BusCall.timeoutMilliseconds, nil, { source, result, data in
                let name = String(cString: data!.assumingMemoryBound(to: CChar.self))
                free(data)
                var error: UnsafeMutablePointer<GError>?
                if let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, &error) {
                    var started: guint32 = 0
                    if let value = g_variant_get_child_value(reply, 0) {
                        started = g_variant_get_uint32(value)
                        g_variant_unref(value)
                    }
                    g_variant_unref(reply)
                    AppLog.log(.info, AppLogText.agentStarted(name, started))
                } else {
                    AppLog.log(.warning, AppLogText.agentNotStarted(name, takeGError(error)))
                }
            }, strdup(busName))
    }

    /// RequestBackground(parent_window, options): the Response comes as a
    /// signal on the request's object, whose path the handle token fixes,
    /// so the app subscribes before it calls. No `reason`: the portal then
    /// words the question itself, in the desktop's language.
    func requestBackground(commandLine: [String], autostart: Bool) {
        let app = dfl_g_application(application)
        guard let connection = g_application_get_dbus_connection(app),
            let unique = g_dbus_connection_get_unique_name(connection)
        else { return }
        AppLog.log(.info, AppLogText.requestingBackground)
        // Asked once: a later start leaves the portal's entry as the
        // desktop's settings keep it (SandboxAgentMachine).
        g_mkdir_with_parents(paths.state, 0o700)
        g_file_set_contents(paths.backgroundAsked, "", 0, nil)
        let token = "dfl_background_\(UInt32.random(in: 1...UInt32.max))"
        let sender = String(String(cString: unique).dropFirst().map { $0 == "." ? "_" : $0 })
        let path = ExternalInterface.Portal.requestPathPrefix + sender + "/" + token
        let request = BackgroundRequest(application: self, connection: connection)
        request.subscription = g_dbus_connection_signal_subscribe(
            connection, ExternalInterface.Portal.name, ExternalInterface.Portal.requestInterface, ExternalInterface.Portal.response,
            path, nil, DFL_G_DBUS_SIGNAL_FLAGS_NONE,
            { _, _, _, _, _, parameters, data in
                from(data, as: BackgroundRequest.self).answered(parameters)
            }, retained(request), { data in
                Unmanaged<BackgroundRequest>.fromOpaque(data!).release()
            })

        let dictionary = g_variant_type_new("a{sv}")
        let options = g_variant_builder_new(dictionary)
        g_variant_type_free(dictionary)
        g_variant_builder_add_value(options, optionEntry("handle_token", g_variant_new_string(token)))
        g_variant_builder_add_value(options, optionEntry("autostart", g_variant_new_boolean(autostart ? 1 : 0)))
        // An array of strings; its type comes from its children (there is
        // at least one).
        var children = commandLine.map { g_variant_new_string($0) }
        g_variant_builder_add_value(options, optionEntry("commandline", g_variant_new_array(
            nil, &children, gsize(children.count))))
        g_variant_builder_add_value(options, optionEntry("dbus-activatable", g_variant_new_boolean(0)))
        var arguments: [OpaquePointer?] = [g_variant_new_string(""), g_variant_builder_end(options)]
        g_variant_builder_unref(options)
        g_dbus_connection_call(
            connection, ExternalInterface.Portal.name, ExternalInterface.Portal.path, ExternalInterface.Portal.backgroundInterface,
            ExternalInterface.Portal.requestBackground, g_variant_new_tuple(&arguments, gsize(arguments.count)), nil,
            DFL_G_DBUS_CALL_FLAGS_NONE, BusCall.timeoutMilliseconds, nil, { source, result, data in
                let request = taken(data, as: BackgroundRequest.self)
                var error: UnsafeMutablePointer<GError>?
                if let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, &error) {
                    g_variant_unref(reply)
                } else {
                    request.failed(takeGError(error))
                }
            }, retained(request))
    }
}

/// One `{sv}` of an options dictionary.
func optionEntry(_ key: String, _ value: OpaquePointer?) -> OpaquePointer? {
    g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(value))
}

/// A RequestBackground on its way: its Response, once, or the call's error.
private final class BackgroundRequest {
    let application: DesktopApplication
    let connection: OpaquePointer
    var subscription: guint = 0
    private var done = false

    init(application: DesktopApplication, connection: OpaquePointer) {
        self.application = application
        self.connection = connection
        g_object_ref(raw(connection))
    }

    deinit { g_object_unref(raw(connection)) }

    /// Response(u response, a{sv} results): 0 allowed, 1 refused, 2 ended
    /// otherwise; `background` and `autostart` in the results.
    func answered(_ parameters: OpaquePointer?) {
        guard !done, let parameters, String(cString: g_variant_get_type_string(parameters)) == "(ua{sv})" else { return }
        finish()
        var code: guint32 = 2
        if let value = g_variant_get_child_value(parameters, 0) {
            code = g_variant_get_uint32(value)
            g_variant_unref(value)
        }
        guard code != 2 else {
            application.backgroundFailed("the portal ended the request")
            return
        }
        let results = g_variant_get_child_value(parameters, 1)
        defer { if let results { g_variant_unref(results) } }
        let flag = { (key: String) -> Bool? in
            guard let results, let value = g_variant_lookup_value(results, key, nil) else { return nil }
            defer { g_variant_unref(value) }
            guard String(cString: g_variant_get_type_string(value)) == "b" else { return nil }
            return g_variant_get_boolean(value) != 0
        }
        application.backgroundAnswered(
            allowed: flag("background") ?? (code == 0), autostart: flag("autostart") ?? false)
    }

    func failed(_ reason: String) {
        guard !done else { return }
        finish()
        application.backgroundFailed(reason)
    }

    private func finish() {
        done = true
        if subscription != 0 { g_dbus_connection_signal_unsubscribe(connection, subscription) }
        subscription = 0
    }
}

/// On the GTK main thread only, where GLib calls it back: the compiler keeps it there.
@available(*, unavailable)
extension BackgroundRequest: Sendable {}
