import SleepTimerCore

/// The window's navigation decisions with what they remember: the clicks
/// the top frame reported, each good for one launch, and which refusals were
/// logged lately, so that a page that tries again and again (a frame
/// navigating the top every 250 ms) makes one log line per origin and
/// minute, not thousands. Times are the app's monotonic milliseconds.
public struct LaunchGuard: Sendable {
    public let policy: NavigationPolicy
    /// How long a reported click waits for its navigation: WebKit asks about
    /// it at once, so this only bounds a click whose navigation the page
    /// cancelled.
    public static let clickLifetime: Duration = .seconds(2)
    /// Clicks kept at most: a person does not click faster.
    static let maximumClicks = 8
    /// How long a refusal of one origin (or scheme) is not logged again.
    public static let quiet = RefusalLog.quiet

    private var clicks: [(link: String, at: Int64)] = []
    private var logged = RefusalLog()

    public init(policy: NavigationPolicy) {
        self.policy = policy
    }

    /// A decision, and the log line to write for it, if any.
    public struct Verdict: Sendable, Equatable {
        public let decision: NavigationDecision
        public let log: String?
    }

    /// The app's script in the top frame saw a person click a link to `url`.
    public mutating func clickedInTopFrame(_ url: String, at now: Int64) {
        clicks.removeAll { now - $0.at > Self.clickLifetime.wholeMilliseconds }
        if clicks.count >= Self.maximumClicks { clicks.removeFirst() }
        clicks.append((Self.withoutFragment(url), now))
    }

    /// What to do with a navigation WebKit asks about. A launch uses up the
    /// click that led to it: one click, one launch.
    public mutating func decide(_ url: String, at moment: NavigationMoment, now: Int64) -> Verdict {
        let link = Self.withoutFragment(url)
        let click = clicks.firstIndex { $0.link == link && now - $0.at <= Self.clickLifetime.wholeMilliseconds }
        let decision = policy.decide(url, at: moment, clickedInTopFrame: click != nil)
        switch decision {
        case .openOutside:
            if let click { clicks.remove(at: click) }
            return Verdict(decision: decision, log: nil)
        case .refuse(let refusal):
            let line: String
            switch refusal.reason {
            case .scheme: line = AppLogText.refusedNavigation(refusal.source)
            case .withoutClick: line = AppLogText.refusedWithoutClick(refusal.source)
            }
            return Verdict(decision: decision, log: shouldLog(refusal.source, now: now) ? line : nil)
        default:
            return Verdict(decision: decision, log: nil)
        }
    }

    /// A download WebKit started, from `url` (nil when it did not say): it
    /// is always cancelled; the log line to write, if any.
    public mutating func download(from url: String?, now: Int64) -> String? {
        let source = url.flatMap(WebURL.init)?.source ?? "?"
        return shouldLog("download " + source, now: now) ? AppLogText.refusedDownload(source) : nil
    }

    private mutating func shouldLog(_ key: String, now: Int64) -> Bool {
        logged.shouldLog(key, now: now)
    }

    static func withoutFragment(_ url: String) -> String {
        String(url.prefix { $0 != "#" })
    }
}
