/// Where a deep link into the app begins: the app's own URL scheme
/// (`dreamsforlittles://` by default) or the https origin of the web app.
public struct DeepLinkBase: Sendable, Equatable, CustomStringConvertible {
    enum Kind: Sendable, Equatable {
        case customScheme(String)
        case webOrigin(APIOrigin)
    }

    let kind: Kind

    /// The app's own URL scheme, which the installed desktop app handles.
    public static let appScheme = "dreamsforlittles"

    public static let `default` = DeepLinkBase(kind: .customScheme(appScheme))

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
    public let sleep: SleepRoute?

    /// Built from validated ids only: the base is a checked scheme or
    /// origin and every other part is a canonical UUID, so no text from
    /// another process is ever spliced in, and the link always starts with a
    /// letter (never `-`, which a program receiving it could take for an
    /// option).
    public init(base: DeepLinkBase, familySubjectID: FamilySubjectID, babyID: BabyID, timerID: TimerID) {
        self.base = base
        let sleep = SleepRoute(familySubjectID: familySubjectID, babyID: babyID, timerID: timerID)
        self.sleep = sleep
        let path = sleep.path
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

/// The Sleep tracker's place in the app: the one shape of a deep link after
/// its base, `families/{family}/babies/{baby}/track/sleep?timer={timer}`,
/// with each of the three a UUID. The agent writes its links with it and
/// the app reads them back with it (AppDeepLink), so the two cannot drift.
public struct SleepRoute: Sendable, Equatable {
    public let familySubjectID: FamilySubjectID
    public let babyID: BabyID
    public let timerID: TimerID

    public init(familySubjectID: FamilySubjectID, babyID: BabyID, timerID: TimerID) {
        self.familySubjectID = familySubjectID
        self.babyID = babyID
        self.timerID = timerID
    }

    /// Why a text is not a Sleep route: another shape altogether, or the
    /// right shape with one part that is not a UUID.
    public enum Problem: Error, Sendable, Equatable {
        case otherShape
        case notAnIdentifier(Part)

        public enum Part: Sendable, Equatable { case family, baby, timer }
    }

    /// The path and query, without a leading slash.
    public var path: String {
        "families/\(familySubjectID.string)/babies/\(babyID.string)/track/sleep?timer=\(timerID.string)"
    }

    /// Reads exactly the shape `path` writes: more or fewer segments, more
    /// query parameters, a fragment or percent-encoding are another shape,
    /// so nothing but the three checked ids may pass.
    public init(parsing text: some StringProtocol) throws(Problem) {
        let pathAndQuery = text.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard pathAndQuery.count == 2 else { throw .otherShape }
        let segments = pathAndQuery[0].split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count == 6, segments[0] == "families", segments[2] == "babies", segments[4] == "track",
            segments[5] == "sleep", pathAndQuery[1].hasPrefix("timer=")
        else { throw .otherShape }
        let timerText = pathAndQuery[1].dropFirst("timer=".count)
        guard let family = FamilySubjectID(String(segments[1])) else { throw .notAnIdentifier(.family) }
        guard let baby = BabyID(String(segments[3])) else { throw .notAnIdentifier(.baby) }
        guard let timer = TimerID(String(timerText)) else {
            // "timer=…&x=1" or "timer=…#…" are other shapes, not bad ids.
            if timerText.contains(where: { $0 == "&" || $0 == "#" || $0 == "=" }) { throw .otherShape }
            throw .notAnIdentifier(.timer)
        }
        self.init(familySubjectID: family, babyID: baby, timerID: timer)
    }
}
