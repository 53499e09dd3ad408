import CDFLWebKitGTK
import DesktopAppCore
import Glibc

/// Where the web app's website data lives, and the TLS trust it gets.
///
/// Website data (the web app's sign-in, its local storage and outbox,
/// cookies) persists under `$XDG_DATA_HOME/dreamsforlittles/`, the HTTP
/// cache under `$XDG_CACHE_HOME/dreamsforlittles/`, both made private all
/// the way down (`PrivateTree`) before WebKit writes there, and everything
/// WebKit writes made 0600 by the app's umask of 077. Third-party cookies are
/// never accepted. Certificates are verified by the system's authorities;
/// when the configuration names a `ca-file` (a platform with a private CA),
/// a certificate of the web app's own host that the system refused is
/// accepted if it verifies against that file, and only then.
///
/// Downloads are refused, from every frame, the web app's own included: the
/// web app saves nothing on the desktop, and a frame of another origin must
/// not write files into the home folder without a click. A download is
/// cancelled as soon as WebKit starts it, before it has a destination.
///
/// Under WebDriver (--automation), WebKit gives the view an ephemeral
/// session of its own instead, as WebDriver expects a fresh profile; the
/// same policies apply to it, and nothing is kept.
///
/// Used on the GTK main thread only.
final class WebsiteSession {
    /// The session the view uses.
    private(set) var session: OpaquePointer
    /// Whether the website data is kept on disk this run; the window says
    /// so when it is not.
    let storage: WebsiteStorageRule.Storage
    private let certificateAuthorities: String?
    /// A download was cancelled; its URL (nil if WebKit gave none), which
    /// the log shortens to its origin.
    var downloadRefused: (String?) -> Void = { _ in }
    /// The session whose downloads are watched: `use` may be given the same
    /// one again.
    private var watchedForDownloads: OpaquePointer?

    init(paths: AppPaths, certificateAuthorities: String?) {
        // Private before WebKit writes anything beneath them (WebsiteStorageRule).
        let storage = WebsiteStorageRule.storage(
            websiteDataFailure: PrivateTree.prepare(paths.websiteData, what: "the website data folder"),
            cacheFailure: PrivateTree.prepare(paths.cache, what: "the cache folder"))
        self.storage = storage
        switch storage {
        case .kept:
            session = webkit_network_session_new(paths.websiteData, paths.cache)
            webkit_cookie_manager_set_persistent_storage(
                webkit_network_session_get_cookie_manager(session), paths.websiteData + "/cookies.sqlite",
                WEBKIT_COOKIE_PERSISTENT_STORAGE_SQLITE)
        case .inMemory:
            session = webkit_network_session_new_ephemeral()
        }
        if let line = storage.logLine { AppLog.log(.warning, line) }
        self.certificateAuthorities = certificateAuthorities
        use(session)
    }

    /// Applies the policies to the session the view ended up with.
    func use(_ viewSession: OpaquePointer?) {
        guard let viewSession else { return }
        session = viewSession
        webkit_network_session_set_tls_errors_policy(session, WEBKIT_TLS_ERRORS_POLICY_FAIL)
        webkit_cookie_manager_set_accept_policy(
            webkit_network_session_get_cookie_manager(session), WEBKIT_COOKIE_POLICY_ACCEPT_NO_THIRD_PARTY)
        if watchedForDownloads != viewSession {
            watchedForDownloads = viewSession
            dfl_connect_pointer(raw(viewSession), "download-started", { _, download, data in
                from(data, as: WebsiteSession.self).refuse(dfl_webkit_download(download))
            }, unretained(self), nil)
        }
    }

    private func refuse(_ download: OpaquePointer?) {
        guard let download else { return }
        let url = webkit_download_get_request(download).flatMap { webkit_uri_request_get_uri($0) }.map { String(cString: $0) }
        // Should WebKit go on to ask where to save it, the answer is the same.
        dfl_connect_bool_pointer(raw(download), "decide-destination", { download, _, _ in
            webkit_download_cancel(dfl_webkit_download(download))
            return 1
        }, nil, nil)
        webkit_download_cancel(download)
        downloadRefused(url)
    }

    /// Accepts `certificate` for `host` when it verifies against the
    /// configured ca-file for that host name. Returns whether it did; the
    /// reason is logged either way.
    func acceptWithConfiguredAuthorities(_ certificate: UnsafeMutablePointer<GTlsCertificate>, host: String, port: UInt16)
        -> Bool
    {
        guard let certificateAuthorities else { return false }
        var error: UnsafeMutablePointer<GError>?
        guard let database = g_tls_file_database_new(certificateAuthorities, &error) else {
            AppLog.log(.warning, AppLogText.certificateRefused(host, takeGError(error)))
            return false
        }
        defer { g_object_unref(UnsafeMutableRawPointer(database)) }
        // The host as a certificate names it: an IPv6 address without brackets.
        let bare = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        let identity = g_network_address_new(bare, port)
        defer { g_object_unref(UnsafeMutableRawPointer(identity)) }
        let flags = g_tls_database_verify_chain(
            UnsafeMutableRawPointer(database).assumingMemoryBound(to: GTlsDatabase.self), certificate,
            "1.3.6.1.5.5.7.3.1", identity, nil, DFL_G_TLS_DATABASE_VERIFY_NONE, nil, &error)
        if let error {
            AppLog.log(.warning, AppLogText.certificateRefused(host, takeGError(error)))
            return false
        }
        guard flags.rawValue == 0 else {
            AppLog.log(.warning, AppLogText.certificateRefused(host, "verification flags \(flags.rawValue)"))
            return false
        }
        webkit_network_session_allow_tls_certificate_for_host(session, certificate, bare)
        AppLog.log(.info, AppLogText.certificateAccepted(host))
        return true
    }
}

/// On the GTK main thread only, where GLib calls it back: the compiler keeps it there.
@available(*, unavailable)
extension WebsiteSession: Sendable {}
