import SleepTimerCore

/// The window's navigation decisions with what they remember: the clicks
/// the top frame reported, each good for one launch, and which refusals were
/// logged lately, so that a page that tries again and again (a frame
/// navigating the top every 250 ms) makes one log line per origin and
/// minute, not thousands. Times are moments of the app's monotonic clock.
public struct LaunchMachine: Sendable {
    public struct Settings: Sendable, Equatable {
        /// How long a reported click waits for its navigation: WebKit asks
        /// about it at once, so this only bounds a click whose navigation
        /// the page cancelled.
        public var clickLifetime: Duration

        public init(clickLifetime: Duration = .seconds(2)) {
            self.clickLifetime = clickLifetime
        }
    }

    public let rule: NavigationRule
    public let settings: Settings
    /// Clicks kept at most: a person does not click faster.
    static let maximumClicks = 8

    /// A person's click on a link in the top frame, not used yet.
    public struct Click: Sendable, Equatable {
        /// The link, without its fragment.
        public let link: String
        public let at: MonotonicInstant
    }

    public struct State: Sendable, Equatable {
        /// The clicks reported lately, oldest first.
        public var clicks: [Click] = []
        /// Which refusals were logged lately.
        public var logged: LogBudgetMachine<MonotonicInstant> = .pageRefusals()
    }

    private(set) var state = State()

    public init(rule: NavigationRule, settings: Settings = Settings()) {
        self.rule = rule
        self.settings = settings
    }

    /// The app's script in the top frame saw a person click a link to `url`.
    public mutating func clickedInTopFrame(_ url: String, at now: MonotonicInstant) {
        state.clicks.removeAll { now.duration(since: $0.at) > settings.clickLifetime }
        if state.clicks.count >= Self.maximumClicks { state.clicks.removeFirst() }
        state.clicks.append(Click(link: Self.withoutFragment(url), at: now))
    }

    /// What to do with a navigation WebKit asks about: the rule's decision,
    /// a refusal with the log line to write for it, if any.
    public enum NavigationAskedAction: Sendable, Equatable {
        /// Let WebKit load it where it was going.
        case load
        /// Load it in the window instead of a new one.
        case loadInWindow(String)
        /// Hand it to the desktop, once; the click that led here is used up.
        case openOutside(String)
        /// The app's own link: open that route in the window instead.
        case openLink(AppDeepLink)
        /// Stop it; `log` is the line to write, nil within the quiet time.
        case refuse(Refusal, log: String?)
    }

    /// WebKit asks about a navigation to `url` at `moment`. A launch uses up
    /// the click that led to it: one click, one launch.
    public mutating func navigationAsked(_ url: String, at moment: NavigationMoment, now: MonotonicInstant) -> NavigationAskedAction {
        let link = Self.withoutFragment(url)
        let click = state.clicks.firstIndex { $0.link == link && now.duration(since: $0.at) <= settings.clickLifetime }
        switch rule.decision(for: url, at: moment, clickedInTopFrame: click != nil) {
        case .load:
            return .load
        case .loadInWindow(let url):
            return .loadInWindow(url)
        case .openOutside(let url):
            if let click { state.clicks.remove(at: click) }
            return .openOutside(url)
        case .openLink(let link):
            return .openLink(link)
        case .refuse(let refusal):
            let line: String
            switch refusal.reason {
            case .scheme: line = AppLogText.refusedNavigation(refusal.source)
            case .withoutClick: line = AppLogText.refusedWithoutClick(refusal.source)
            }
            return .refuse(refusal, log: state.logged.line(line, for: refusal.source, at: now))
        }
    }

    public enum DownloadRefusedAction: Sendable, Equatable {
        /// Write this log line.
        case log(String)
    }

    /// A download WebKit started, from `url` (nil when it did not say), was
    /// cancelled, as every download is; nil when its source was logged
    /// within the quiet time.
    public mutating func downloadRefused(from url: String?, at now: MonotonicInstant) -> DownloadRefusedAction? {
        let source = url.flatMap(WebURL.init)?.source ?? "?"
        return state.logged.line(AppLogText.refusedDownload(source), for: "download " + source, at: now).map(DownloadRefusedAction.log)
    }

    static func withoutFragment(_ url: String) -> String {
        String(url.prefix { $0 != "#" })
    }
}
