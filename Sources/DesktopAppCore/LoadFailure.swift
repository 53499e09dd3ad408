/// What a failed load shows. The web app's own failures show the app's
/// offline page (and a retry); a load another replaced, or the navigation
/// policy stopped, is no failure; another origin's failure shows nothing of
/// that origin, not even WebKit's error page, and the web app stays.
public enum LoadFailure: Sendable, Equatable {
    /// WebKit's network error "cancelled": a newer load replaced this one.
    case cancelled
    /// WebKit's policy error domain: the navigation policy stopped it.
    case stoppedByPolicy
    /// Anything else: the network, the server, the name.
    case failed

    public enum Outcome: Sendable, Equatable {
        /// Not a failure: WebKit goes on as it would.
        case none
        /// Handled, with no page: WebKit's error page is not shown.
        case showNothing
        /// The app's offline page, with a retry.
        case showOffline
    }

    public func outcome(isWebApp: Bool) -> Outcome {
        guard isWebApp else { return .showNothing }
        switch self {
        case .cancelled, .stoppedByPolicy: return .none
        case .failed: return .showOffline
        }
    }
}
