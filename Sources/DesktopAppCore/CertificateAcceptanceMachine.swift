import SleepTimerCore

/// When a certificate WebKit did not trust is accepted: only the web app's
/// host, only when the configured certificate authorities vouch for it,
/// and once per host. A host accepted once that fails again shows the
/// insecure page instead of trying again, so a certificate the web process
/// still refuses cannot loop reloads.
public struct CertificateAcceptanceMachine: Sendable, Equatable {
    public struct State: Sendable, Equatable {
        /// The hosts the configured authorities vouched for.
        public var acceptedHosts: Set<String> = []
    }

    private(set) var state = State()

    public init() {}

    public enum UntrustedCertificateAction: Sendable, Equatable {
        /// Another origin: nothing of it is shown, its error page neither.
        case showNothing
        /// Ask the configured authorities about the certificate of this
        /// host and port (the scheme's own when the origin names none),
        /// then tell `authoritiesReplied(host:trusted:)` their answer.
        case checkConfiguredAuthorities(host: String, port: UInt16)
        /// The app's insecure page, with a retry.
        case showInsecure
    }

    /// WebKit did not trust a certificate on a page of `webApp`'s origin
    /// (`isWebApp`) or of another. The events' names differ from
    /// PageLoadMachine's, which shares the moment, so that each action type's
    /// name is its own.
    public func untrustedCertificate(isWebApp: Bool, webApp: APIOrigin) -> UntrustedCertificateAction {
        guard isWebApp else { return .showNothing }
        guard !state.acceptedHosts.contains(webApp.host) else { return .showInsecure }
        return .checkConfiguredAuthorities(host: webApp.host, port: webApp.port ?? (webApp.scheme == .https ? 443 : 80))
    }

    public enum AuthoritiesRepliedAction: Sendable, Equatable {
        /// Accepted for the host: load the page again.
        case reload
        /// The app's insecure page, with a retry.
        case showInsecure
    }

    /// The configured authorities answered whether they vouch for `host`'s
    /// certificate.
    public mutating func authoritiesReplied(host: String, trusted: Bool) -> AuthoritiesRepliedAction {
        guard trusted, !state.acceptedHosts.contains(host) else { return .showInsecure }
        state.acceptedHosts.insert(host)
        return .reload
    }
}
