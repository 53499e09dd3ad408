/// The origin of the platform API a timer (and its token) belongs to:
/// `https://host[:port]`, nothing more.
///
/// The token is sent only to the origin it was issued for, so the origin is
/// parsed strictly and normalised (lower-case host, default port dropped)
/// before it is compared with the configured allow-list.
public struct APIOrigin: Hashable, Sendable, CustomStringConvertible {
    public enum Scheme: String, Sendable { case https, http }

    public let scheme: Scheme
    /// Lower-case host name, dotted IPv4 address, or IPv6 address in
    /// brackets.
    public let host: String
    /// nil when it is the scheme's default port.
    public let port: UInt16?

    /// The serialised origin, as sent in requests and compared in the
    /// allow-list.
    public var description: String {
        if let port { return "\(scheme.rawValue)://\(host):\(port)" }
        return "\(scheme.rawValue)://\(host)"
    }

    public var isLoopback: Bool { Self.isLoopbackHost(host) }

    public enum Problem: Error, Sendable, Equatable {
        case malformed
        case schemeNotAllowed
        case plainHTTPNotLoopback
        case hasUserInfo
        case hasPath
        case hasQuery
        case hasFragment

        public var explanation: String {
            switch self {
            case .malformed:
                return "is not an origin of the form https://host[:port]"
            case .schemeNotAllowed:
                return "must use https"
            case .plainHTTPNotLoopback:
                return "uses plain http, which is allowed only for loopback addresses (127.0.0.0/8 and [::1])"
            case .hasUserInfo:
                return "must not carry a user name or password"
            case .hasPath:
                return "must be an origin without a path"
            case .hasQuery:
                return "must be an origin without a query"
            case .hasFragment:
                return "must be an origin without a fragment"
            }
        }
    }

    public init(parsing text: String) throws(Problem) {
        try self.init(parsing: text, plainHTTPAnywhere: false)
    }

    /// `plainHTTPAnywhere` is for a proxy, which sees only a CONNECT to the
    /// platform and the TLS inside it: plain http to it exposes no token.
    init(parsing text: String, plainHTTPAnywhere: Bool) throws(Problem) {
        guard let separator = text.firstRange(of: "://") else { throw .malformed }
        let schemeText = text[..<separator.lowerBound].lowercased()
        let rest = text[separator.upperBound...]
        let scheme: Scheme
        switch schemeText {
        case "https": scheme = .https
        case "http": scheme = .http
        default:
            let isSchemeSyntax = !schemeText.isEmpty && schemeText.utf8.allSatisfy {
                ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || $0 == UInt8(ascii: "+")
                    || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
                    || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
            }
            throw isSchemeSyntax ? .schemeNotAllowed : .malformed
        }
        // The first of these characters ends the authority; whichever comes
        // first names the problem.
        if let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) {
            switch rest[end] {
            case "/": throw .hasPath
            case "?": throw .hasQuery
            default: throw .hasFragment
            }
        }
        if rest.contains("@") { throw .hasUserInfo }
        let (host, port) = try Self.splitHostAndPort(rest)
        if scheme == .http && !plainHTTPAnywhere && !Self.isLoopbackHost(host) { throw .plainHTTPNotLoopback }
        self.scheme = scheme
        self.host = host
        let defaultPort: UInt16 = scheme == .https ? 443 : 80
        self.port = port == defaultPort ? nil : port
    }

    private static func splitHostAndPort(_ authority: Substring) throws(Problem) -> (String, UInt16?) {
        var hostPart = authority
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw .malformed }
            hostPart = authority[...close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw .malformed }
                portText = after.dropFirst()
            }
        } else if let colon = authority.firstIndex(of: ":") {
            hostPart = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        }
        var port: UInt16?
        if let portText {
            guard !portText.isEmpty, portText.count <= 5,
                portText.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                let value = UInt16(portText), value > 0
            else { throw .malformed }
            port = value
        }
        guard let host = normalizedHost(hostPart) else { throw .malformed }
        return (host, port)
    }

    /// A host in canonical form, or nil when it is not a valid DNS name,
    /// dotted IPv4 address or bracketed IPv6 address. Non-ASCII names must
    /// come in their punycode form.
    static func normalizedHost(_ text: Substring) -> String? {
        if text.hasPrefix("[") {
            guard text.hasSuffix("]"), let address = IPv6Address(text.dropFirst().dropLast()) else { return nil }
            return "[\(address.compressed)]"
        }
        let lower = text.lowercased()
        guard !lower.isEmpty, lower.utf8.count <= 253 else { return nil }
        let labels = lower.split(separator: ".", omittingEmptySubsequences: false)
        let allNumeric = labels.allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }
        if allNumeric {
            return IPv4Address(lower) == nil ? nil : lower
        }
        for label in labels {
            guard (1...63).contains(label.utf8.count),
                label.utf8.allSatisfy({
                    ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z"))
                        || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "-")
                }),
                !label.hasPrefix("-"), !label.hasSuffix("-")
            else { return nil }
        }
        // A last label of digits only would be read as an address by some
        // resolvers; a real top-level domain is never numeric.
        if let last = labels.last, last.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) { return nil }
        return lower
    }

    static func isLoopbackHost(_ host: String) -> Bool {
        if host.hasPrefix("[") {
            return IPv6Address(host.dropFirst().dropLast())?.isLoopback ?? false
        }
        return IPv4Address(host)?.octets.first == 127
    }
}

/// The origins this agent accepts timers from, from the configuration.
public struct AllowedOrigins: Sendable, Equatable {
    public let origins: [APIOrigin]

    public init(_ origins: [APIOrigin]) {
        var unique: [APIOrigin] = []
        for origin in origins where !unique.contains(origin) { unique.append(origin) }
        self.origins = unique
    }

    public func contains(_ origin: APIOrigin) -> Bool { origins.contains(origin) }
}

/// A dotted-quad IPv4 address, strictly: four decimal parts of 0–255 without
/// leading zeros (which some parsers read as octal).
struct IPv4Address: Equatable {
    let octets: [UInt8]

    init?(_ text: some StringProtocol) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var octets: [UInt8] = []
        for part in parts {
            guard (1...3).contains(part.count), part.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
                !(part.count > 1 && part.hasPrefix("0")), let value = UInt8(part)
            else { return nil }
            octets.append(value)
        }
        self.octets = octets
    }
}

/// An IPv6 address without zone id, parsed into its eight groups.
struct IPv6Address: Equatable {
    let groups: [UInt16]

    init?(_ text: some StringProtocol) {
        let text = String(text)
        guard !text.isEmpty, text.utf8.count <= 45 else { return nil }
        let halves = text.split(separator: "::", omittingEmptySubsequences: false)
        guard halves.count <= 2 else { return nil }
        func parseGroups(_ part: Substring) -> [UInt16]? {
            if part.isEmpty { return [] }
            var result: [UInt16] = []
            for group in part.split(separator: ":", omittingEmptySubsequences: false) {
                guard (1...4).contains(group.count), let value = UInt16(group, radix: 16) else { return nil }
                result.append(value)
            }
            return result
        }
        guard let head = parseGroups(halves[0]) else { return nil }
        if halves.count == 2 {
            guard let tail = parseGroups(halves[1]), head.count + tail.count <= 7 else { return nil }
            groups = head + Array(repeating: 0, count: 8 - head.count - tail.count) + tail
        } else {
            guard head.count == 8 else { return nil }
            groups = head
        }
    }

    var isLoopback: Bool { groups == [0, 0, 0, 0, 0, 0, 0, 1] }

    /// RFC 5952 text: lower-case, the longest run of two or more zero groups
    /// compressed to `::`.
    var compressed: String {
        var bestStart = -1
        var bestLength = 0
        var index = 0
        while index < 8 {
            if groups[index] == 0 {
                var end = index
                while end < 8 && groups[end] == 0 { end += 1 }
                if end - index > bestLength && end - index >= 2 {
                    bestStart = index
                    bestLength = end - index
                }
                index = end
            } else {
                index += 1
            }
        }
        let hex = groups.map { String($0, radix: 16) }
        if bestStart < 0 { return hex.joined(separator: ":") }
        let head = hex[..<bestStart].joined(separator: ":")
        let tail = hex[(bestStart + bestLength)...].joined(separator: ":")
        return "\(head)::\(tail)"
    }
}
