/// Where a deep link into the app begins: the app's own URL scheme
/// (`dreamsforlittles://` by default) or the https origin of the web app.
public struct DeepLinkBase: Sendable, Equatable, CustomStringConvertible {
    enum Kind: Sendable, Equatable {
        case customScheme(String)
        case webOrigin(APIOrigin)
    }

    let kind: Kind

    public static let `default` = DeepLinkBase(kind: .customScheme("dreamsforlittles"))

    /// Schemes that belong to browsers or the system and must not be
    /// configured as the app's own.
    static let reservedSchemes: Set<String> = [
        "http", "file", "javascript", "data", "vbscript", "about", "blob", "ftp", "ws", "wss",
        "mailto", "tel", "sms", "ssh", "smb", "sftp", "ldap", "jar", "view-source", "filesystem",
    ]

    public enum Problem: Error, Sendable, Equatable {
        case malformed
        case reservedScheme
        case origin(APIOrigin.Problem)

        public var explanation: String {
            switch self {
            case .malformed:
                return "must be the app's scheme followed by :// (such as dreamsforlittles://) or an https origin"
            case .reservedScheme:
                return "names a scheme that belongs to browsers or the system, not the app"
            case .origin(let problem):
                return problem.explanation
            }
        }
    }

    private init(kind: Kind) { self.kind = kind }

    /// The web app's origin as a base: where a link opens in the browser.
    public init(webOrigin: APIOrigin) { kind = .webOrigin(webOrigin) }

    /// Whether links begin with the app's own scheme, which only an
    /// installed app handles.
    public var isAppScheme: Bool {
        if case .customScheme = kind { return true }
        return false
    }

    public init(parsing text: String) throws(Problem) {
        guard let separator = text.firstRange(of: "://") else { throw .malformed }
        let scheme = text[..<separator.lowerBound].lowercased()
        guard let first = scheme.utf8.first, first >= UInt8(ascii: "a"), first <= UInt8(ascii: "z"),
            scheme.utf8.allSatisfy({
                ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z"))
                    || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
                    || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
            })
        else { throw .malformed }
        if scheme == "https" {
            do {
                kind = .webOrigin(try APIOrigin(parsing: text))
            } catch {
                throw .origin(error)
            }
            return
        }
        guard !Self.reservedSchemes.contains(scheme) else { throw .reservedScheme }
        guard text[separator.upperBound...].isEmpty else { throw .malformed }
        kind = .customScheme(scheme)
    }

    public var description: String {
        switch kind {
        case .customScheme(let scheme): return "\(scheme)://"
        case .webOrigin(let origin): return origin.description
        }
    }
}

/// A link that opens the app's Sleep tracker at one family, baby and timer,
/// or the app's start page.
public struct DeepLink: Sendable, Equatable, CustomStringConvertible {
    public let url: String
    public let base: DeepLinkBase
    /// The Sleep tracker's family, baby and timer; nil for the start page.
    let sleep: Sleep?

    struct Sleep: Sendable, Equatable {
        let familySubjectID: FamilySubjectID
        let babyID: BabyID
        let timerID: TimerID
    }

    /// Built from validated ids only: the base is a checked scheme or
    /// origin and every other part is a canonical UUID, so no text from
    /// another process is ever spliced in, and the link always starts with a
    /// letter (never `-`, which a program receiving it could take for an
    /// option).
    public init(base: DeepLinkBase, familySubjectID: FamilySubjectID, babyID: BabyID, timerID: TimerID) {
        self.base = base
        sleep = Sleep(familySubjectID: familySubjectID, babyID: babyID, timerID: timerID)
        let path = "families/\(familySubjectID.string)/babies/\(babyID.string)/track/sleep?timer=\(timerID.string)"
        switch base.kind {
        case .customScheme(let scheme): url = "\(scheme)://\(path)"
        case .webOrigin(let origin): url = "\(origin.description)/\(path)"
        }
        precondition(url.utf8.first.map { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") } == true)
    }

    /// The app's start page, for "Open Dreams for Littles": the bare scheme
    /// (`dreamsforlittles://`) or the web app's origin with its root path.
    public init(appHomeAt base: DeepLinkBase) {
        self.base = base
        sleep = nil
        switch base.kind {
        case .customScheme(let scheme): url = "\(scheme)://"
        case .webOrigin(let origin): url = "\(origin.description)/"
        }
    }

    /// Whether this is the app's start page rather than a timer's tracker.
    public var isAppHome: Bool { sleep == nil }

    /// The same link on another base, e.g. the web app's origin when the
    /// app is not installed.
    public func rebased(on base: DeepLinkBase) -> DeepLink {
        guard let sleep else { return DeepLink(appHomeAt: base) }
        return DeepLink(base: base, familySubjectID: sleep.familySubjectID, babyID: sleep.babyID, timerID: sleep.timerID)
    }

    public var description: String { url }
}
