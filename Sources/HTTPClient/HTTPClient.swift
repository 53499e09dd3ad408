import CDFLCurl
import EventLoop
import SleepTimerCore

/// A response: status, headers (names lower-case) and body.
public struct HTTPResponse: Sendable {
    public let status: Int
    public let headers: [(name: String, value: String)]
    public let body: [UInt8]

    public func header(_ name: String) -> String? {
        let lower = name.lowercased()
        return headers.last { $0.name == lower }?.value
    }
}

/// Why a request produced no response. Descriptions name the failure, never
/// the request body.
public struct HTTPError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The request was refused before any connection: not https (or
        /// plain http off loopback), or a header with CR/LF.
        case refused
        case timedOut
        /// DNS, TCP, TLS or transfer failure.
        case transport
        case responseTooLarge
    }

    public let kind: Kind
    public let message: String

    public var description: String { message }
}

/// Settings that apply to every request.
public struct HTTPSettings: Sendable {
    /// `sha256//…` pins of the server's public key; empty: none.
    public var pinnedPublicKeys: [String] = []
    /// A PEM file of certificate authorities to trust instead of the system's.
    public var certificateAuthorities: String?
    public var connectTimeoutMilliseconds = 10_000
    public var totalTimeoutMilliseconds = 30_000
    /// A transfer slower than 1 byte/s for this long is abandoned.
    public var lowSpeedSeconds = 15
    /// The largest response body accepted.
    public var maximumResponseBytes = 1 << 20
    public var userAgent = "dfl-sleep-agent"

    public init() {}
}

/// HTTPS on libcurl's multi interface, driven by the process's event loop:
/// curl reports the sockets and the timeout it needs, the loop watches them,
/// and no request ever blocks the loop. Connections (and TLS sessions) are
/// kept in the multi handle's cache and reused.
///
/// The rules every request follows: https only, plain http only to a
/// loopback origin; redirects never followed; certificate verification
/// always on; optional public-key pins; connect, total and low-speed
/// timeouts; no signals, and a resolver (threaded) that the connect timeout
/// bounds; CR or LF in any header value refused.
///
/// Not Sendable, which the compiler holds: used on the loop's thread.
public final class HTTPClient {
    private let loop: MainLoop
    private let settings: HTTPSettings
    private let multi: UnsafeMutableRawPointer
    private var sockets: [Int32: MainLoop.Source] = [:]
    private var timer: MainLoop.Source?
    private var transfers: [UnsafeMutableRawPointer: Transfer] = [:]
    /// Set while finished transfers are collected, when curl must not be
    /// driven again from a completion handler.
    private var collecting = false

    /// libcurl's global state, set up once before any handle exists.
    private static let globalInit: Void = {
        curl_global_init(Int(CURL_GLOBAL_DEFAULT))
    }()

    public init(loop: MainLoop, settings: HTTPSettings) {
        Self.globalInit
        self.loop = loop
        self.settings = settings
        multi = curl_multi_init()
        let me = Unmanaged.passUnretained(self).toOpaque()
        dfl_curl_multi_setopt_socket_callback(multi) { _, socket, what, data, _ in
            Unmanaged<HTTPClient>.fromOpaque(data!).takeUnretainedValue().socketChanged(socket, what: what)
            return 0
        }
        dfl_curl_multi_setopt_pointer(multi, CURLMOPT_SOCKETDATA, me)
        dfl_curl_multi_setopt_timer_callback(multi) { _, timeout, data in
            Unmanaged<HTTPClient>.fromOpaque(data!).takeUnretainedValue().timerChanged(timeout)
            return 0
        }
        dfl_curl_multi_setopt_pointer(multi, CURLMOPT_TIMERDATA, me)
    }

    deinit {
        for (easy, transfer) in transfers {
            curl_multi_remove_handle(multi, easy)
            transfer.finish()
        }
        timer?.cancel()
        for source in sockets.values { source.cancel() }
        curl_multi_cleanup(multi)
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
    /// sent where the caller's origin says.
    public func send(
        _ method: String, origin: APIOrigin, path: String, body: [UInt8], headers: [(String, String)] = [],
        completion: @escaping (Result<HTTPResponse, HTTPError>) -> Void
    ) {
        guard method == "POST" || method == "PUT" else {
            completion(.failure(HTTPError(kind: .refused, message: "only POST and PUT are sent")))
            return
        }
        guard origin.scheme == .https || origin.isLoopback else {
            completion(.failure(HTTPError(kind: .refused, message: "plain http is allowed only to loopback origins")))
            return
        }
        guard path.hasPrefix("/"), !path.utf8.contains(where: { $0 < 0x21 || $0 == 0x7F || $0 == UInt8(ascii: "#") }) else {
            completion(.failure(HTTPError(kind: .refused, message: "the request path is malformed")))
            return
        }
        let allHeaders = [("Content-Type", "application/json"), ("Accept", "application/json"),
                          ("User-Agent", settings.userAgent)] + headers
        for (name, value) in allHeaders {
            guard !name.isEmpty, !name.utf8.contains(where: { $0 <= 0x20 || $0 == UInt8(ascii: ":") || $0 >= 0x7F }),
                !value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 })
            else {
                completion(.failure(HTTPError(kind: .refused, message: "the header \(name.utf8.count <= 64 ? name : "…") has a CR, LF or invalid name")))
                return
            }
        }
        guard let easy = curl_easy_init() else {
            completion(.failure(HTTPError(kind: .transport, message: "libcurl could not make a handle")))
            return
        }
        let transfer = Transfer(easy: easy, body: body, limit: settings.maximumResponseBytes, completion: completion)
        var list: UnsafeMutablePointer<curl_slist>?
        for (name, value) in allHeaders { list = curl_slist_append(list, "\(name): \(value)") }
        transfer.headerList = list
        let box = Unmanaged.passUnretained(transfer).toOpaque()
        let url = origin.description + path
        var failed = false
        func set(_ code: CURLcode) { if code != CURLE_OK { failed = true } }
        set(dfl_curl_easy_setopt_string(easy, CURLOPT_URL, url))
        set(dfl_curl_easy_setopt_string(easy, CURLOPT_PROTOCOLS_STR, origin.scheme == .https ? "https" : "http"))
        set(dfl_curl_easy_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0))
        set(dfl_curl_easy_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, 1))
        set(dfl_curl_easy_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, 2))
        set(dfl_curl_easy_setopt_long(easy, CURLOPT_SSLVERSION, Int(CURL_SSLVERSION_TLSv1_2)))
        if let authorities = settings.certificateAuthorities { set(dfl_curl_easy_setopt_string(easy, CURLOPT_CAINFO, authorities)) }
        if !settings.pinnedPublicKeys.isEmpty {
            set(dfl_curl_easy_setopt_string(easy, CURLOPT_PINNEDPUBLICKEY, settings.pinnedPublicKeys.joined(separator: ";")))
        }
        set(dfl_curl_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1))
        set(dfl_curl_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, settings.connectTimeoutMilliseconds))
        set(dfl_curl_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, settings.totalTimeoutMilliseconds))
        set(dfl_curl_easy_setopt_long(easy, CURLOPT_LOW_SPEED_LIMIT, 1))
        set(dfl_curl_easy_setopt_long(easy, CURLOPT_LOW_SPEED_TIME, settings.lowSpeedSeconds))
        set(dfl_curl_easy_setopt_long(easy, CURLOPT_POST, 1))
        if method == "PUT" { set(dfl_curl_easy_setopt_string(easy, CURLOPT_CUSTOMREQUEST, "PUT")) }
        set(dfl_curl_easy_setopt_off_t(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(transfer.bodyCount)))
        set(dfl_curl_easy_setopt_pointer(easy, CURLOPT_POSTFIELDS, transfer.bodyPointer))
        set(dfl_curl_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, list))
        set(dfl_curl_easy_setopt_data_callback(easy, CURLOPT_WRITEFUNCTION) { data, size, count, user in
            Unmanaged<Transfer>.fromOpaque(user!).takeUnretainedValue().received(data!, size * count)
        })
        set(dfl_curl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, box))
        set(dfl_curl_easy_setopt_data_callback(easy, CURLOPT_HEADERFUNCTION) { data, size, count, user in
            Unmanaged<Transfer>.fromOpaque(user!).takeUnretainedValue().receivedHeader(data!, size * count)
        })
        set(dfl_curl_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, box))
        guard !failed else {
            transfer.finish()
            completion(.failure(HTTPError(kind: .refused, message: "libcurl refused an option of the request")))
            return
        }
        transfers[easy] = transfer
        curl_multi_add_handle(multi, easy)
        // Start at once rather than on the loop's next turn: whatever the
        // caller does next (a synchronous notification update, say) then
        // overlaps with the request instead of delaying it.
        if !collecting { act(on: CURL_SOCKET_BAD, mask: 0) }
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
        curl_multi_socket_action(multi, socket, mask, &running)
        collectFinished()
    }

    private func collectFinished() {
        collecting = true
        defer { collecting = false }
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                let transfer = transfers.removeValue(forKey: easy)
            else { continue }
            let code = message.pointee.data.result
            var status = 0
            dfl_curl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
            curl_multi_remove_handle(multi, easy)
            let result: Result<HTTPResponse, HTTPError>
            if transfer.tooLarge {
                result = .failure(HTTPError(kind: .responseTooLarge, message: "the response was larger than \(settings.maximumResponseBytes) bytes"))
            } else if code != CURLE_OK {
                let kind: HTTPError.Kind = code == CURLE_OPERATION_TIMEDOUT ? .timedOut : .transport
                result = .failure(HTTPError(kind: kind, message: String(cString: curl_easy_strerror(code))))
            } else {
                result = .success(HTTPResponse(status: status, headers: transfer.headers, body: transfer.response))
            }
            let completion = transfer.completion
            transfer.finish()
            completion(result)
        }
    }
}

/// One request in flight: its own copy of the body (wiped when done, since
/// it may carry a token), the response as it arrives, and the handle.
private final class Transfer {
    let easy: UnsafeMutableRawPointer
    let bodyPointer: UnsafeMutableRawPointer
    let bodyCount: Int
    let limit: Int
    let completion: (Result<HTTPResponse, HTTPError>) -> Void
    var headerList: UnsafeMutablePointer<curl_slist>?
    var response: [UInt8] = []
    var headers: [(name: String, value: String)] = []
    var tooLarge = false
    private var finished = false

    init(easy: UnsafeMutableRawPointer, body: [UInt8], limit: Int, completion: @escaping (Result<HTTPResponse, HTTPError>) -> Void) {
        self.easy = easy
        bodyCount = body.count
        let copy = UnsafeMutableRawPointer.allocate(byteCount: max(1, body.count), alignment: 1)
        body.withUnsafeBytes { if let base = $0.baseAddress { copy.copyMemory(from: base, byteCount: body.count) } }
        bodyPointer = copy
        self.limit = limit
        self.completion = completion
    }

    func received(_ data: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
        guard response.count + count <= limit else {
            tooLarge = true
            return 0
        }
        response.append(contentsOf: UnsafeRawBufferPointer(start: data, count: count))
        return count
    }

    func receivedHeader(_ data: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
        let line = String(decoding: UnsafeRawBufferPointer(start: data, count: count), as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            headers = []  // a new response (after 100 Continue): its own headers
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].lowercased()
            var value = line[line.index(after: colon)...]
            while value.first == " " || value.first == "\t" { value = value.dropFirst() }
            while let last = value.last, last == "\r\n" || last == "\n" || last == "\r" || last == " " { value = value.dropLast() }
            if headers.count < 100 { headers.append((name, String(value))) }
        }
        return count
    }

    func finish() {
        guard !finished else { return }
        finished = true
        curl_easy_cleanup(easy)
        curl_slist_free_all(headerList)
        bodyPointer.initializeMemory(as: UInt8.self, repeating: 0, count: bodyCount)
        bodyPointer.deallocate()
    }
}

/// libcurl's multi handle is driven by one loop, on that loop's thread only: the compiler keeps it there.
@available(*, unavailable)
extension HTTPClient: Sendable {}
