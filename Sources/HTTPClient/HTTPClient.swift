import CDFLCurl
import EventLoop
import SleepTimerCore

/// HTTPS on libcurl's multi interface, driven by the process's event loop:
/// curl reports the sockets and the timeout it needs, the loop watches them,
/// and no request ever blocks the loop. Connections (and TLS sessions) are
/// kept in the multi handle's cache and reused.
///
/// The rules every request follows: https only, plain http only to a
/// loopback origin; redirects never followed; certificate verification
/// always on; optional public-key pins; connect, total and low-speed
/// timeouts; no signals, and a resolver (threaded) that the connect timeout
/// bounds; CR or LF in any header value refused. Every libcurl call's
/// result is checked, and a failure names the call.
///
/// Not Sendable, which the compiler holds: used on the loop's thread.
public final class HTTPClient {
    private let loop: MainLoop
    private let settings: HTTPSettings
    private let multi: UnsafeMutableRawPointer
    /// Why the multi handle cannot be used, if it could not be set up:
    /// every request then fails with it instead of hanging.
    private var broken: CurlFailure?
    private var sockets: [Int32: MainLoop.Source] = [:]
    private var timer: MainLoop.Source?
    private var transfers: [UnsafeMutableRawPointer: Transfer] = [:]
    /// Set while finished transfers are collected, when curl must not be
    /// driven again from a completion handler.
    private var collecting = false
    /// Set while `send` drives curl for the first time. On a busy machine a
    /// loopback answer can arrive before that first drive returns; its
    /// completion then waits for the loop, so that no caller is answered
    /// before `send` has returned (a caller that runs the loop until the
    /// answer would otherwise wait for ever).
    private var starting = false

    /// libcurl's global state, set up once before any handle exists.
    private static let globalInit: CurlFailure? = {
        let code = curl_global_init(Int(CURL_GLOBAL_DEFAULT))
        return code == CURLE_OK ? nil : CurlFailure(call: "curl_global_init", code)
    }()

    public init(loop: MainLoop, settings: HTTPSettings) {
        let global = Self.globalInit
        self.loop = loop
        self.settings = settings
        multi = curl_multi_init()
        broken = global ?? setUpMulti()
    }

    /// Hands curl the callbacks through which it asks the loop to watch
    /// sockets and keep time.
    private func setUpMulti() -> CurlFailure? {
        let me = Unmanaged.passUnretained(self).toOpaque()
        let calls: [(String, CURLMcode)] = [
            ("CURLMOPT_SOCKETFUNCTION", dfl_curl_multi_setopt_socket_callback(multi) { _, socket, what, data, _ in
                Unmanaged<HTTPClient>.fromOpaque(data!).takeUnretainedValue().socketChanged(socket, what: what)
                return 0
            }),
            ("CURLMOPT_SOCKETDATA", dfl_curl_multi_setopt_pointer(multi, CURLMOPT_SOCKETDATA, me)),
            ("CURLMOPT_TIMERFUNCTION", dfl_curl_multi_setopt_timer_callback(multi) { _, timeout, data in
                Unmanaged<HTTPClient>.fromOpaque(data!).takeUnretainedValue().timerChanged(timeout)
                return 0
            }),
            ("CURLMOPT_TIMERDATA", dfl_curl_multi_setopt_pointer(multi, CURLMOPT_TIMERDATA, me)),
        ]
        return calls.first { $0.1 != CURLM_OK }.map { CurlFailure(call: "curl_multi_setopt(\($0.0))", $0.1) }
    }

    deinit {
        for (easy, transfer) in transfers {
            let removed = curl_multi_remove_handle(multi, easy)
            assert(removed == CURLM_OK, "curl_multi_remove_handle: \(removed)")
            transfer.finish()
        }
        timer?.cancel()
        for source in sockets.values { source.cancel() }
        let cleaned = curl_multi_cleanup(multi)
        assert(cleaned == CURLM_OK, "curl_multi_cleanup: \(cleaned)")
    }

    /// Whether libcurl resolves names without blocking (the threaded
    /// resolver), so that the connect timeout bounds DNS too.
    public static var resolvesAsynchronously: Bool {
        // CURLVERSION_NOW is a macro naming the newest layout this header knows.
        guard let info = curl_version_info(CURLVERSION_ELEVENTH) else { return false }
        return info.pointee.features & CURL_VERSION_ASYNCHDNS != 0
    }

    /// POSTs `body` to `path` on `origin`.
    public func post(
        origin: APIOrigin, path: String, body: [UInt8], headers: [(String, String)] = [],
        completion: @escaping (Result<HTTPResponse, HTTPError>) -> Void
    ) {
        send("POST", origin: origin, path: path, body: body, headers: headers, completion: completion)
    }

    /// Sends `body` with `method` (POST or PUT) to `path` on `origin`. The
    /// URL is built here from the checked origin, so a body is only ever
    /// sent where the caller's origin says. A refusal, or a handle that
    /// cannot be made or started, answers before the call returns; every
    /// answer from the network comes from the loop, later.
    public func send(
        _ method: String, origin: APIOrigin, path: String, body: [UInt8], headers: [(String, String)] = [],
        completion: @escaping (Result<HTTPResponse, HTTPError>) -> Void
    ) {
        let allHeaders = [("Content-Type", "application/json"), ("Accept", "application/json"),
                          ("User-Agent", settings.userAgent)] + headers
        if let refusal = Self.refusal(method: method, origin: origin, path: path, headers: allHeaders) {
            return completion(.failure(refusal))
        }
        if let broken { return completion(.failure(HTTPError(broken))) }
        guard let easy = curl_easy_init() else {
            return completion(.failure(HTTPError(kind: .transport, message: "libcurl could not make a handle")))
        }
        let transfer = Transfer(easy: easy, body: body, limit: settings.maximumResponseBytes, completion: completion)
        do {
            try prepare(transfer, method: method, url: origin.description + path, https: origin.scheme == .https,
                        headers: allHeaders)
            try start(transfer)
        } catch {
            transfer.finish()
            completion(.failure(HTTPError(error)))
        }
    }

    /// Why a request may not be sent at all, or nil.
    static func refusal(method: String, origin: APIOrigin, path: String, headers: [(String, String)]) -> HTTPError? {
        guard method == "POST" || method == "PUT" else {
            return HTTPError(kind: .refused, message: "only POST and PUT are sent")
        }
        guard origin.scheme == .https || origin.isLoopback else {
            return HTTPError(kind: .refused, message: "plain http is allowed only to loopback origins")
        }
        guard path.hasPrefix("/"), !path.utf8.contains(where: { $0 < 0x21 || $0 == 0x7F || $0 == UInt8(ascii: "#") }) else {
            return HTTPError(kind: .refused, message: "the request path is malformed")
        }
        for (name, value) in headers {
            guard !name.isEmpty, !name.utf8.contains(where: { $0 <= 0x20 || $0 == UInt8(ascii: ":") || $0 >= 0x7F }),
                !value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 })
            else {
                return HTTPError(kind: .refused, message: "the header \(name.utf8.count <= 64 ? name : "…") has a CR, LF or invalid name")
            }
        }
        return nil
    }

    /// Sets every option of the transfer's handle: the rules above, the
    /// request, and the callbacks that collect the response.
    private func prepare(_ transfer: Transfer, method: String, url: String, https: Bool,
                         headers: [(String, String)]) throws(CurlFailure) {
        for (name, value) in headers {
            guard let list = curl_slist_append(transfer.headerList, "\(name): \(value)") else {
                throw CurlFailure(call: "curl_slist_append", CURLE_OUT_OF_MEMORY)
            }
            transfer.headerList = list
        }
        let options = EasyOptions(easy: transfer.easy)
        try options.set(CURLOPT_URL, string: url)
        try options.set(CURLOPT_PROTOCOLS_STR, string: https ? "https" : "http")
        try options.set(CURLOPT_FOLLOWLOCATION, long: 0)
        try options.set(CURLOPT_SSL_VERIFYPEER, long: 1)
        try options.set(CURLOPT_SSL_VERIFYHOST, long: 2)
        try options.set(CURLOPT_SSLVERSION, long: Int(CURL_SSLVERSION_TLSv1_2))
        // An empty proxy is none at all, and an empty no-proxy list bypasses
        // it for no host: either way libcurl reads no proxy variable.
        try options.set(CURLOPT_PROXY, string: https ? settings.proxy?.description ?? "" : "")
        try options.set(CURLOPT_NOPROXY, string: "")
        if let authorities = settings.certificateAuthorities { try options.set(CURLOPT_CAINFO, string: authorities) }
        if !settings.pinnedPublicKeys.isEmpty {
            try options.set(CURLOPT_PINNEDPUBLICKEY, string: settings.pinnedPublicKeys.joined(separator: ";"))
        }
        try options.set(CURLOPT_NOSIGNAL, long: 1)
        try options.set(CURLOPT_CONNECTTIMEOUT_MS, long: settings.connectTimeoutMilliseconds)
        try options.set(CURLOPT_TIMEOUT_MS, long: settings.totalTimeoutMilliseconds)
        try options.set(CURLOPT_LOW_SPEED_LIMIT, long: 1)
        try options.set(CURLOPT_LOW_SPEED_TIME, long: settings.lowSpeedSeconds)
        try options.set(CURLOPT_POST, long: 1)
        if method == "PUT" { try options.set(CURLOPT_CUSTOMREQUEST, string: "PUT") }
        try options.set(CURLOPT_POSTFIELDSIZE_LARGE, size: transfer.bodyCount)
        try options.set(CURLOPT_POSTFIELDS, pointer: transfer.bodyPointer)
        try options.set(CURLOPT_HTTPHEADER, list: transfer.headerList)
        try collectResponse(of: transfer, options)
    }

    private func collectResponse(of transfer: Transfer, _ options: EasyOptions) throws(CurlFailure) {
        let box = Unmanaged.passUnretained(transfer).toOpaque()
        try options.set(CURLOPT_WRITEFUNCTION, callback: { data, size, count, user in
            Unmanaged<Transfer>.fromOpaque(user!).takeUnretainedValue().received(data!, size * count)
        })
        try options.set(CURLOPT_WRITEDATA, pointer: box)
        try options.set(CURLOPT_HEADERFUNCTION, callback: { data, size, count, user in
            Unmanaged<Transfer>.fromOpaque(user!).takeUnretainedValue().receivedHeader(data!, size * count)
        })
        try options.set(CURLOPT_HEADERDATA, pointer: box)
    }

    private func start(_ transfer: Transfer) throws(CurlFailure) {
        let code = curl_multi_add_handle(multi, transfer.easy)
        guard code == CURLM_OK else { throw CurlFailure(call: "curl_multi_add_handle", code) }
        transfers[transfer.easy] = transfer
        // Start at once rather than on the loop's next turn: whatever the
        // caller does next (a synchronous notification update, say) then
        // overlaps with the request instead of delaying it.
        guard !collecting else { return }
        starting = true
        defer { starting = false }
        act(on: CURL_SOCKET_BAD, mask: 0)
    }

    // MARK: Loop integration

    private func socketChanged(_ socket: curl_socket_t, what: Int32) {
        sockets.removeValue(forKey: socket)?.cancel()
        guard what != CURL_POLL_REMOVE else { return }
        var events: MainLoop.Events = [.error, .hangUp]
        if what == CURL_POLL_IN || what == CURL_POLL_INOUT { events.insert(.readable) }
        if what == CURL_POLL_OUT || what == CURL_POLL_INOUT { events.insert(.writable) }
        sockets[socket] = loop.watch(descriptor: socket, for: events) { [unowned self] ready in
            var mask: Int32 = 0
            if ready.contains(.readable) { mask |= CURL_CSELECT_IN }
            if ready.contains(.writable) { mask |= CURL_CSELECT_OUT }
            if ready.contains(.error) { mask |= CURL_CSELECT_ERR }
            self.act(on: socket, mask: mask)
            return .keep
        }
    }

    private func timerChanged(_ timeout: Int) {
        timer?.cancel()
        timer = nil
        guard timeout >= 0 else { return }
        // Acting from inside curl's callback is not allowed; even a timeout
        // of 0 goes through the loop.
        timer = loop.after(milliseconds: UInt32(clamping: timeout)) { [unowned self] in
            self.timer = nil
            self.act(on: CURL_SOCKET_BAD, mask: 0)
            return .remove
        }
    }

    private func act(on socket: curl_socket_t, mask: Int32) {
        var running: Int32 = 0
        let code = curl_multi_socket_action(multi, socket, mask, &running)
        collectFinished()
        // A multi handle that refuses to act would leave every transfer
        // waiting for ever: they fail now instead.
        if code != CURLM_OK { failAll(CurlFailure(call: "curl_multi_socket_action", code)) }
    }

    private func collectFinished() {
        collecting = true
        defer { collecting = false }
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                let transfer = transfers.removeValue(forKey: easy)
            else { continue }
            let result = outcome(of: transfer, code: message.pointee.data.result)
            end(transfer, result)
        }
    }

    private func outcome(of transfer: Transfer, code: CURLcode) -> Result<HTTPResponse, HTTPError> {
        if transfer.tooLarge {
            return .failure(HTTPError(kind: .responseTooLarge, message: "the response was larger than \(settings.maximumResponseBytes) bytes"))
        }
        guard code == CURLE_OK else {
            let kind: HTTPError.Kind = code == CURLE_OPERATION_TIMEDOUT ? .timedOut : .transport
            return .failure(HTTPError(kind: kind, message: String(cString: curl_easy_strerror(code))))
        }
        do {
            return .success(HTTPResponse(status: try transfer.responseCode(), headers: transfer.headers, body: transfer.response))
        } catch {
            return .failure(HTTPError(error))
        }
    }

    /// Takes a transfer out of the multi handle, frees it, and answers.
    private func end(_ transfer: Transfer, _ result: Result<HTTPResponse, HTTPError>) {
        // The transfer is over whatever this returns; only a handle the
        // multi handle does not hold could make it fail, which is a bug.
        let removed = curl_multi_remove_handle(multi, transfer.easy)
        assert(removed == CURLM_OK, "curl_multi_remove_handle: \(removed)")
        let completion = transfer.completion
        transfer.finish()
        if starting {
            // At the loop's default priority, not when idle: a busy bus must
            // not keep the answer waiting.
            loop.after(milliseconds: 0) {
                completion(result)
                return .remove
            }
        } else {
            completion(result)
        }
    }

    private func failAll(_ failure: CurlFailure) {
        let failing = transfers
        transfers = [:]
        for transfer in failing.values { end(transfer, .failure(HTTPError(failure))) }
    }
}

/// libcurl's multi handle is driven by one loop, on that loop's thread only: the compiler keeps it there.
@available(*, unavailable)
extension HTTPClient: Sendable {}
