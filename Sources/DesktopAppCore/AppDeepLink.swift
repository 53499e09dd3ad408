import SleepTimerCore

/// A link into the app from outside: a notification's click, `xdg-open`, the
/// desktop portal, the agent's opener, or the command line. Only one shape
/// is accepted, exactly:
///
///     dreamsforlittles://families/{family}/babies/{baby}/track/sleep?timer={timer}
///
/// with each of the three a UUID: the scheme is the agent's default base,
/// and the rest is SleepRoute, the shape the agent writes. Anything else (another host, more or
/// fewer path segments, percent-encoding, a fragment, more query parameters,
/// another scheme such as `javascript:`) is refused with the reason, and the
/// app navigates nowhere: the link's parts end up in a URL the web view
/// loads, so nothing but the three checked ids may pass.
public struct AppDeepLink: Sendable, Equatable {
    public static let scheme = DeepLinkBase.appScheme

    public let familySubjectID: FamilySubjectID
    public let babyID: BabyID
    public let timerID: TimerID

    public enum Refusal: Error, Sendable, Equatable {
        case notTheAppsScheme
        case notASleepLink
        case notAnIdentifier(Part)

        public typealias Part = SleepRoute.Problem.Part

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
        let route: SleepRoute
        do {
            route = try SleepRoute(parsing: String(decoding: text.utf8.dropFirst(prefix.utf8.count), as: UTF8.self))
        } catch {
            switch error {
            case .otherShape: throw .notASleepLink
            case .notAnIdentifier(let part): throw .notAnIdentifier(part)
            }
        }
        self.init(familySubjectID: route.familySubjectID, babyID: route.babyID, timerID: route.timerID)
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
        "/" + SleepRoute(familySubjectID: familySubjectID, babyID: babyID, timerID: timerID).path
    }

    /// The link itself, in canonical form.
    public var url: String { Self.scheme + ":/" + route }

    /// Where the web app shows this timer.
    public func webURL(origin: APIOrigin) -> String { origin.description + route }
}
