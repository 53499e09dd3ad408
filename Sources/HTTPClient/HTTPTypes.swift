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
        /// A libcurl call failed: the call, and for an option which one,
        /// is named, so that a refused pin or CA file can be found.
        case libcurl(CurlFailure)
        case timedOut
        /// DNS, TCP, TLS or transfer failure.
        case transport
        case responseTooLarge
    }

    public let kind: Kind
    public let message: String

    init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    init(_ failure: CurlFailure) {
        self.init(kind: .libcurl(failure), message: failure.description)
    }

    public var description: String { message }
}

/// A libcurl call that did not return OK: which call (with the option's
/// name, for curl_easy_setopt) and curl's words for the code. Neither can
/// hold an option's value, so a token or pin never shows.
public struct CurlFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// Such as `curl_easy_setopt(CURLOPT_PINNEDPUBLICKEY)` or `curl_multi_add_handle`.
    public let call: String
    /// The CURLcode or CURLMcode.
    public let code: Int32
    public let reason: String

    public init(call: String, code: Int32, reason: String) {
        self.call = call
        self.code = code
        self.reason = reason
    }

    public var description: String { "libcurl refused \(call): \(reason)" }
}

/// Settings that apply to every request.
public struct HTTPSettings: Sendable {
    /// `sha256//…` pins of the server's public key; empty: none.
    public var pinnedPublicKeys: [String] = []
    /// A PEM file of certificate authorities to trust instead of the system's.
    public var certificateAuthorities: String?
    /// The proxy for https requests; nil: none. Never one from the
    /// environment, and never one for plain http (loopback only), which
    /// would hand a proxy the request in clear.
    public var proxy: APIOrigin?
    public var connectTimeoutMilliseconds = 10_000
    public var totalTimeoutMilliseconds = 30_000
    /// A transfer slower than 1 byte/s for this long is abandoned.
    public var lowSpeedSeconds = 15
    /// The largest response body accepted.
    public var maximumResponseBytes = 1 << 20
    public var userAgent = "dfl-sleep-agent"

    public init() {}

    /// The settings the platform's configuration asks for, the same for
    /// the agent and the bridge.
    public init(platform configuration: Configuration, userAgent: String) {
        pinnedPublicKeys = configuration.pinnedPublicKeys
        certificateAuthorities = configuration.certificateAuthorities
        proxy = configuration.proxy
        self.userAgent = userAgent
    }
}
