import BusNames
import CDFLWebKitGTK
import DesktopAppCore
import Glibc
import SleepTimerCore

/// Hands a link that does not belong in the window to the desktop, the way
/// LinkRouteRule decides for the agent's links too: the desktop portal's
/// OpenURI when org.freedesktop.portal.Desktop is on the session bus, and
/// `xdg-open` (started with an argument vector, never a shell) without it or
/// when it fails. The links come from the navigation policy: http, https and
/// mailto only, so none starts with `-`.
///
/// Used on the GTK main thread only.
final class ExternalOpener {
    private typealias Portal = ExternalInterface.Portal
    private typealias Bus = StandardInterface.Bus
    private let connection: OpaquePointer?

    init() {
        var error: UnsafeMutablePointer<GError>?
        connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error)
        if connection == nil { _ = takeGError(error) }
    }

    func open(_ url: String) {
        AppLog.log(.info, AppLogText.openingOutside(url))
        guard let connection else { return tryDesktop(LinkRouteRule.desktopWays(portalOnBus: false)[...], url) }
        let request = Request(opener: self, url: url)
        let arguments = g_variant_new_tuple([g_variant_new_string(Portal.name)], 1)
        g_dbus_connection_call(
            connection, Bus.name, Bus.path, Bus.name, Bus.nameHasOwner,
            arguments, nil, DFL_G_DBUS_CALL_FLAGS_NONE, BusCall.timeoutMilliseconds, nil,
            { source, result, data in
                let request = taken(data, as: Request.self)
                var error: UnsafeMutablePointer<GError>?
                let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, &error)
                var present = false
                if let reply {
                    let child = g_variant_get_child_value(reply, 0)
                    present = g_variant_get_boolean(child) != 0
                    g_variant_unref(child)
                    g_variant_unref(reply)
                } else {
                    _ = takeGError(error)
                }
                request.opener.tryDesktop(LinkRouteRule.desktopWays(portalOnBus: present)[...], request.url)
            }, retained(request))
    }

    /// The desktop's ways in the rule's order, the next one only when one fails.
    private func tryDesktop(_ ways: ArraySlice<LinkRouteRule.DesktopWay>, _ url: String) {
        guard let way = ways.first else { return }
        switch way {
        case .portal: openThroughPortal(url, then: ways.dropFirst())
        case .xdgOpen: if !spawnDesktopOpener(url) { tryDesktop(ways.dropFirst(), url) }
        }
    }

    fileprivate final class Request {
        let opener: ExternalOpener
        let url: String
        let rest: ArraySlice<LinkRouteRule.DesktopWay>
        init(opener: ExternalOpener, url: String, rest: ArraySlice<LinkRouteRule.DesktopWay> = []) {
            self.opener = opener
            self.url = url
            self.rest = rest
        }
    }

    private func openThroughPortal(_ url: String, then rest: ArraySlice<LinkRouteRule.DesktopWay>) {
        guard let connection else { return tryDesktop(rest, url) }
        let entryType = g_variant_type_new("{sv}")
        defer { g_variant_type_free(entryType) }
        let options = g_variant_new_array(entryType, nil, 0)
        let children: [OpaquePointer?] = [g_variant_new_string(""), g_variant_new_string(url), options]
        let arguments = children.withUnsafeBufferPointer { g_variant_new_tuple($0.baseAddress, 3) }
        g_dbus_connection_call(
            connection, Portal.name, Portal.path, Portal.openURIInterface, Portal.openURI,
            arguments, nil, DFL_G_DBUS_CALL_FLAGS_NONE, BusCall.timeoutMilliseconds, nil,
            { source, result, data in
                let request = taken(data, as: Request.self)
                var error: UnsafeMutablePointer<GError>?
                if let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, &error) {
                    g_variant_unref(reply)
                } else {
                    AppLog.log(.notice, AppLogText.openerFailed(Portal.name, takeGError(error)))
                    request.opener.tryDesktop(request.rest, request.url)
                }
            }, retained(Request(opener: self, url: url, rest: rest)))
    }

    /// False when it could not be started.
    private func spawnDesktopOpener(_ url: String) -> Bool {
        var error: UnsafeMutablePointer<GError>?
        let argv = [strdup(LinkRouteRule.desktopOpener), strdup(url), nil]
        defer { argv.forEach { free($0) } }
        var mutableArgv = argv
        let spawned = mutableArgv.withUnsafeMutableBufferPointer {
            // The person's own mask for what they open (a browser started
            // here saves downloads as they expect), not the app's 077.
            g_spawn_async(nil, $0.baseAddress, nil, DFL_G_SPAWN_SEARCH_PATH, { data in
                _ = umask(FileCreationMask.decode(data))
            }, FileCreationMask.encodedInherited, nil, &error)
        }
        if spawned == 0 { AppLog.log(.warning, AppLogText.openerFailed(LinkRouteRule.desktopOpener, takeGError(error))) }
        return spawned != 0
    }
}

/// On the GTK main thread only, where GLib calls it back: the compiler keeps it there.
@available(*, unavailable)
extension ExternalOpener: Sendable {}

/// On the GTK main thread only, where GLib calls it back: the compiler keeps it there.
@available(*, unavailable)
extension ExternalOpener.Request: Sendable {}
