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

/// When a certificate WebKit did not trust is accepted: only the web app's
/// host, only when the configured certificate authorities vouch for it,
/// and once per host. A host accepted once that fails again shows the
/// insecure page instead of trying again, so a certificate the web process
/// still refuses cannot loop reloads.
public struct CertificateAcceptance: Sendable, Equatable {
    public private(set) var acceptedHosts: Set<String> = []

    public init() {}

    public enum Step: Sendable, Equatable {
        /// Another origin: nothing of it is shown, its error page neither.
        case showNothing
        /// Ask the configured authorities about this host's certificate,
        /// then tell `checked(host:trusted:)` their answer.
        case checkConfiguredAuthorities(host: String)
        /// The app's insecure page, with a retry.
        case showInsecure
    }

    public enum Outcome: Sendable, Equatable {
        /// Accepted for the host: load the page again.
        case reload
        case showInsecure
    }

    public func step(isWebApp: Bool, host: String) -> Step {
        guard isWebApp else { return .showNothing }
        return acceptedHosts.contains(host) ? .showInsecure : .checkConfiguredAuthorities(host: host)
    }

    public mutating func checked(host: String, trusted: Bool) -> Outcome {
        guard trusted, !acceptedHosts.contains(host) else { return .showInsecure }
        acceptedHosts.insert(host)
        return .reload
    }
}
