import SleepTimerCore

/// The window's page: what it shows first, what a failed load or a
/// certificate WebKit refused shows (LoadFailure, CertificateAcceptanceMachine),
/// when the web app is loaded again (PageRetryMachine), and what Reload, an
/// ended web process and a network that comes back load. WebKit and GLib
/// stay in the window, which says what happened and carries out what this
/// returns.
///
/// The app's own pages (offline, insecure) stand at the failed page's
/// address; their loading says nothing about the web app, so only a load
/// of the web app itself that did not fail starts the back-off over.
public struct PageLoadMachine: Sendable {
    public struct State: Sendable, Equatable {
        /// What the window means to show: the web app's start, or a link's
        /// route. A failed load tries this again.
        public var target: String?
        public var retry = PageRetryMachine()
        /// A retry waits on its timer.
        public var retryWaiting = false
        /// The page shown is one of the app's own (offline, insecure).
        public var showingOwnPage = false
        /// The load under way failed: its end is no recovery.
        public var loadFailed = false
        /// Which hosts' certificates the configured authorities vouched for.
        public var certificates = CertificateAcceptanceMachine()
    }

    private(set) var state = State()
    public let setup: AppSetup
    private let rule: NavigationRule?

    public init(setup: AppSetup) {
        self.setup = setup
        if case .configured(let origin, _) = setup {
            rule = NavigationRule(webOrigin: origin)
        } else {
            rule = nil
        }
    }

    // MARK: The first page and what the window loads

    public enum StartedAction: Sendable, Equatable {
        /// Load the web app's start.
        case load(String)
        /// Show this page of the app's own, saying what is wrong.
        case show(html: String)
    }

    /// The window shows its first page: the web app, or the app's own
    /// page naming the configuration's mistake.
    public func started() -> StartedAction {
        switch setup {
        case .configured(let origin, _): .load(origin.description + "/")
        case .invalid(let description): .show(html: AppPages.configurationError(description))
        }
    }

    public enum LinkOpenedAction: Sendable, Equatable {
        /// Load the link's route of the web app.
        case load(String)
        /// The configuration cannot be used, so no web app is shown: the
        /// link is refused, and said so.
        case refuse
    }

    /// A deep link is to open in the window.
    public func linkOpened(_ link: AppDeepLink) -> LinkOpenedAction {
        guard case .configured(let origin, _) = setup else { return .refuse }
        return .load(link.webURL(origin: origin))
    }

    public enum LoadingAction: Sendable, Equatable {
        /// Cancel the retry's timer: this load replaces it.
        case cancelRetry
        /// Load the address in the web view.
        case load(String)
    }

    /// The window loads `url` as what it means to show (its start, a link,
    /// a retry): a retry still waiting is cancelled first.
    public mutating func loading(_ url: String) -> [LoadingAction] {
        state.target = url
        state.showingOwnPage = false
        var actions: [LoadingAction] = []
        if state.retryWaiting {
            state.retryWaiting = false
            actions.append(.cancelRetry)
        }
        actions.append(.load(url))
        return actions
    }

    public enum ReloadAskedAction: Sendable, Equatable {
        /// Load what the window means to show, in place of its own page.
        case load(String)
        /// Reload the page shown.
        case reloadPage
    }

    /// Reload (the button, Ctrl+R, F5): on the app's own page it loads the
    /// web app again, since reloading the offline page would show it again.
    public func reloadAsked() -> ReloadAskedAction {
        if state.showingOwnPage, let target = state.target { return .load(target) }
        return .reloadPage
    }

    // MARK: How a load ends

    /// WebKit started a load in the main frame.
    public mutating func loadStarted() {
        state.loadFailed = false
    }

    /// WebKit finished a load at `uri`; a load of the web app that did not
    /// fail starts the back-off over.
    public mutating func loadFinished(at uri: String?) {
        guard !state.showingOwnPage, !state.loadFailed, rule?.isWebApp(uri) == true else { return }
        state.retry.loaded()
    }

    public enum LoadFailedAction: Sendable, Equatable {
        /// Not this window's to handle: WebKit goes on as it would.
        case letWebKitHandle
        /// Handled, with no page: WebKit's error page is not shown.
        case showNothing
        /// Show the app's offline page at the failed page's address, and
        /// load the web app again after `retryAfter` (replacing any retry
        /// that still waits).
        case showOffline(html: String, at: String, retryAfter: Duration)
    }

    /// A load at `uri` failed; `failure` is nil when WebKit said no error.
    public mutating func loadFailed(at uri: String?, _ failure: LoadFailure?) -> LoadFailedAction {
        state.loadFailed = true
        guard let failure, let rule, let uri else { return .letWebKitHandle }
        switch failure.outcome(isWebApp: rule.isWebApp(uri)) {
        case .none:
            return .letWebKitHandle
        case .showNothing:
            return .showNothing
        case .showOffline:
            let delay = scheduleRetry()
            return .showOffline(
                html: AppPages.offline(origin: rule.webOrigin.description, retryURL: state.target ?? uri, retrySeconds: Self.seconds(delay)),
                at: uri, retryAfter: delay)
        }
    }

    public enum CertificateRefusedAction: Sendable, Equatable {
        /// Not this window's to handle: WebKit goes on as it would.
        case letWebKitHandle
        /// Another origin's: nothing of it is shown, its error page neither.
        case showNothing
        /// Ask the configured authorities about the certificate of this
        /// host and port, and say their answer with `authoritiesAnswered`.
        case checkConfiguredAuthorities(host: String, port: UInt16)
        /// Show the app's insecure page at the failed page's address, and
        /// load the web app again after `retryAfter`.
        case showInsecure(html: String, at: String, retryAfter: Duration)
    }

    /// WebKit did not trust the certificate of the page at `uri`;
    /// `certificateGiven` is false when it did not say which certificate.
    public mutating func certificateRefused(at uri: String, certificateGiven: Bool) -> CertificateRefusedAction {
        state.loadFailed = true
        guard let rule, certificateGiven else { return .letWebKitHandle }
        switch state.certificates.untrustedCertificate(isWebApp: rule.isWebApp(uri), webApp: rule.webOrigin) {
        case .showNothing:
            return .showNothing
        case .checkConfiguredAuthorities(let host, let port):
            return .checkConfiguredAuthorities(host: host, port: port)
        case .showInsecure:
            let (html, delay) = insecurePage()
            return .showInsecure(html: html, at: uri, retryAfter: delay)
        }
    }

    public enum AuthoritiesAnsweredAction: Sendable, Equatable {
        /// Accepted for the host: load what the window means to show again.
        case load(String)
        /// Show the app's insecure page at the failed page's address, and
        /// load the web app again after `retryAfter`.
        case showInsecure(html: String, at: String, retryAfter: Duration)
    }

    /// The configured authorities answered for the certificate of `host`,
    /// refused on the page at `uri`.
    public mutating func authoritiesAnswered(host: String, trusted: Bool, at uri: String) -> AuthoritiesAnsweredAction {
        if state.certificates.authoritiesReplied(host: host, trusted: trusted) == .reload {
            return .load(state.target ?? uri)
        }
        let (html, delay) = insecurePage()
        return .showInsecure(html: html, at: uri, retryAfter: delay)
    }

    // MARK: Recovery

    public enum WebProcessEndedAction: Sendable, Equatable {
        /// Load what the window meant to show again.
        case load(String)
        /// Nothing was loaded yet: show the first page again.
        case start
    }

    /// WebKit's web process crashed or ended: the page it showed is gone.
    public func webProcessEnded() -> WebProcessEndedAction {
        state.target.map(WebProcessEndedAction.load) ?? .start
    }

    public enum RetryDueAction: Sendable, Equatable {
        /// Load what the window means to show again.
        case load(String)
    }

    /// The retry's timer fired; nil when there is nothing to load.
    public mutating func retryDue() -> RetryDueAction? {
        state.retryWaiting = false
        return state.target.map(RetryDueAction.load)
    }

    public enum NetworkCameBackAction: Sendable, Equatable {
        /// Load what the window means to show now, not at the retry's time.
        case load(String)
    }

    /// The network became available; nil unless a retry waits.
    public func networkCameBack() -> NetworkCameBackAction? {
        guard state.retryWaiting, let target = state.target else { return nil }
        return .load(target)
    }

    // MARK: Own pages

    /// The next retry's delay, now waiting; the page shown until then is
    /// the app's own.
    private mutating func scheduleRetry() -> Duration {
        let delay = state.retry.failed()
        state.retryWaiting = true
        state.showingOwnPage = true
        return delay
    }

    /// The insecure page names the web app's origin; only the web app's
    /// certificates are ever checked, so there is one.
    private mutating func insecurePage() -> (String, Duration) {
        let delay = scheduleRetry()
        let origin = rule?.webOrigin.description ?? ""
        return (AppPages.insecure(origin: origin, retrySeconds: Self.seconds(delay)), delay)
    }

    /// A wait in the whole seconds the app's own pages count down.
    private static func seconds(_ wait: Duration) -> Int {
        Int(wait.components.seconds)
    }
}
