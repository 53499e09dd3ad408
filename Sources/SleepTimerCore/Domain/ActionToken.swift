/// The narrow, expiring, one-time native action token the platform issues
/// for one Sleep timer.
///
/// Its value must never reach a log, a D-Bus reply, an error message or a
/// notification, so every textual form of this type (description,
/// debugDescription, `dump`, `Mirror`, string interpolation) is redacted.
/// The value is only reachable through `withRevealedValue`, which the two
/// places that legitimately need it (the store and the completion request
/// body) call.
public struct ActionToken: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable, CustomLeafReflectable
{
    private let value: String

    /// Wraps a token as it arrives, before it is checked, so that even a
    /// token that is about to be refused never travels as a plain string.
    public init(unvalidated value: String) {
        self.value = value
    }

    public var description: String { "ActionToken(redacted)" }
    public var debugDescription: String { "ActionToken(redacted)" }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }

    public func withRevealedValue<Result>(_ body: (String) throws -> Result) rethrows -> Result {
        try body(value)
    }

    /// Compares in time independent of where the first difference is.
    public static func == (lhs: ActionToken, rhs: ActionToken) -> Bool {
        let left = Array(lhs.value.utf8)
        let right = Array(rhs.value.utf8)
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in left.indices { difference |= left[index] ^ right[index] }
        return difference == 0
    }

    /// Bounds and alphabet of a token: long enough to be unguessable, short
    /// enough to store, and only characters that need no escaping anywhere
    /// (base64, base64url and the dot).
    public static let lengthRange = 16...1024

    public enum ShapeProblem: Sendable, Equatable {
        case empty
        case wrongLength
        case forbiddenCharacters
        /// Three base64url segments whose first decodes to a JSON object:
        /// a bearer/session JWT, which the agent must never hold.
        case looksLikeBearerToken
    }

    /// Why the value cannot be a native action token, or nil when it can.
    /// `base64` decodes a JWT's header, to tell a bearer token.
    public func shapeProblem(base64: any Base64Decoding) -> ShapeProblem? {
        if value.isEmpty { return .empty }
        let bytes = Array(value.utf8)
        guard Self.lengthRange.contains(bytes.count) else { return .wrongLength }
        guard bytes.allSatisfy(Self.isAllowed) else { return .forbiddenCharacters }
        if Self.isJSONWebToken(bytes, base64: base64) { return .looksLikeBearerToken }
        return nil
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"),
            UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="):
            return true
        default:
            return false
        }
    }

    static func isJSONWebToken(_ bytes: [UInt8], base64: any Base64Decoding) -> Bool {
        let segments = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard segments.count == 3, segments[0].count > 0, segments[1].count > 0 else { return false }
        guard let standard = Base64URL.standard(segments[0]), let header = base64.decode(standard) else { return false }
        return JSONShape.isObject(header)
    }
}

/// An action token with the moment it stops being accepted.
public struct NativeActionToken: Sendable, Equatable, CustomStringConvertible {
    public let token: ActionToken
    public let expiresAt: Instant

    public init(token: ActionToken, expiresAt: Instant) {
        self.token = token
        self.expiresAt = expiresAt
    }

    public func isValid(at now: Instant) -> Bool { now < expiresAt }

    public var description: String { "NativeActionToken(redacted, expires at \(expiresAt))" }
}

/// Base64url as JWTs use it: `-` and `_` for `+` and `/`, padding optional.
enum Base64URL {
    /// The segment in the standard alphabet, padded, for a base64 decoder;
    /// nil for a segment with `+` or `/`, which is not base64url.
    static func standard(_ segment: some Collection<UInt8>) -> [UInt8]? {
        var standard = [UInt8]()
        standard.reserveCapacity(segment.count + 3)
        for byte in segment {
            switch byte {
            case UInt8(ascii: "-"): standard.append(UInt8(ascii: "+"))
            case UInt8(ascii: "_"): standard.append(UInt8(ascii: "/"))
            case UInt8(ascii: "+"), UInt8(ascii: "/"): return nil
            default: standard.append(byte)
            }
        }
        while standard.count % 4 != 0 { standard.append(UInt8(ascii: "=")) }
        return standard
    }
}

/// Whether bytes hold a JSON object, without caring what is inside.
enum JSONShape {
    static func isObject(_ bytes: [UInt8]) -> Bool {
        guard case .object? = try? JSONParser.parse(bytes, maximumDepth: JSONParser.decoderDepth) else { return false }
        return true
    }
}
