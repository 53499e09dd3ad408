import SleepTimerCore

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
        /// Ask the configured authorities about the certificate of this
        /// host and port (the scheme's own when the origin names none),
        /// then tell `checked(host:trusted:)` their answer.
        case checkConfiguredAuthorities(host: String, port: UInt16)
        /// The app's insecure page, with a retry.
        case showInsecure
    }

    public enum Outcome: Sendable, Equatable {
        /// Accepted for the host: load the page again.
        case reload
        case showInsecure
    }

    /// For a certificate WebKit refused on a page of `webApp`'s origin
    /// (`isWebApp`) or of another.
    public func step(isWebApp: Bool, webApp: APIOrigin) -> Step {
        guard isWebApp else { return .showNothing }
        guard !acceptedHosts.contains(webApp.host) else { return .showInsecure }
        return .checkConfiguredAuthorities(host: webApp.host, port: webApp.port ?? (webApp.scheme == .https ? 443 : 80))
    }

    public mutating func checked(host: String, trusted: Bool) -> Outcome {
        guard trusted, !acceptedHosts.contains(host) else { return .showInsecure }
        acceptedHosts.insert(host)
        return .reload
    }
}
