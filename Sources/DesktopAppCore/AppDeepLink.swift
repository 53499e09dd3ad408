import SleepTimerCore

/// A link into the app from outside: a notification's click, `xdg-open`, the
/// desktop portal, the agent's opener, or the command line. Only one shape
/// is accepted, exactly:
///
///     dreamsforlittles://families/{family}/babies/{baby}/track/sleep?timer={timer}
///
/// with each of the three a UUID. Anything else (another host, more or
/// fewer path segments, percent-encoding, a fragment, more query parameters,
/// another scheme such as `javascript:`) is refused with the reason, and the
/// app navigates nowhere: the link's parts end up in a URL the web view
/// loads, so nothing but the three checked ids may pass.
public struct AppDeepLink: Sendable, Equatable {
    public static let scheme = "dreamsforlittles"

    public let familySubjectID: FamilySubjectID
    public let babyID: BabyID
    public let timerID: TimerID

    public enum Refusal: Error, Sendable, Equatable {
        case notTheAppsScheme
        case notASleepLink
        case notAnIdentifier(Part)

        public enum Part: Sendable, Equatable { case family, baby, timer }

        /// Why, in words for the person who opened the link, in their
        /// language (AppLogText says it in English for the log).
        public var reason: String {
            switch self {
            case .notTheAppsScheme: return AppText.reasonNotTheAppsScheme
            case .notASleepLink: return AppText.reasonNotASleepLink
            case .notAnIdentifier(.family): return AppText.reasonFamilyNotAnIdentifier
            case .notAnIdentifier(.baby): return AppText.reasonBabyNotAnIdentifier
            case .notAnIdentifier(.timer): return AppText.reasonTimerNotAnIdentifier
            }
        }
    }

    public init(familySubjectID: FamilySubjectID, babyID: BabyID, timerID: TimerID) {
        self.familySubjectID = familySubjectID
        self.babyID = babyID
        self.timerID = timerID
    }

    public init(parsing text: String) throws(Refusal) {
        let prefix = Self.scheme + "://"
        // The scheme is case-insensitive (RFC 3986); nothing else is.
        guard text.utf8.count > prefix.utf8.count,
            String(decoding: text.utf8.prefix(prefix.utf8.count), as: UTF8.self).lowercased() == prefix
        else { throw .notTheAppsScheme }
        let rest = String(decoding: text.utf8.dropFirst(prefix.utf8.count), as: UTF8.self)
        let pathAndQuery = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard pathAndQuery.count == 2 else { throw .notASleepLink }
        let segments = pathAndQuery[0].split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count == 6, segments[0] == "families", segments[2] == "babies", segments[4] == "track",
            segments[5] == "sleep", pathAndQuery[1].hasPrefix("timer=")
        else { throw .notASleepLink }
        let timerText = pathAndQuery[1].dropFirst("timer=".count)
        guard let family = FamilySubjectID(segments[1]) else { throw .notAnIdentifier(.family) }
        guard let baby = BabyID(segments[3]) else { throw .notAnIdentifier(.baby) }
        guard let timer = TimerID(timerText) else {
            // "timer=…&x=1" or "timer=…#…" are other shapes, not bad ids.
            if timerText.contains(where: { $0 == "&" || $0 == "#" || $0 == "=" }) { throw .notASleepLink }
            throw .notAnIdentifier(.timer)
        }
        self.init(familySubjectID: family, babyID: baby, timerID: timer)
    }

    /// Whether `text` is the app's own start page, `dreamsforlittles://`
    /// and nothing more (the panel indicator's "Open Dreams for Littles"):
    /// it shows the window where it is.
    public static func isAppHome(_ text: String) -> Bool {
        text.lowercased() == scheme + "://"
    }

    /// The path and query of the Sleep route, shared by the link and the
    /// web app.
    public var route: String {
        "/families/\(familySubjectID.string)/babies/\(babyID.string)/track/sleep?timer=\(timerID.string)"
    }

    /// The link itself, in canonical form.
    public var url: String { Self.scheme + ":/" + route }

    /// Where the web app shows this timer.
    public func webURL(origin: APIOrigin) -> String { origin.description + route }
}
