@testable import DesktopAppCore
import SleepTimerCore
import Testing

@Suite struct CertificateAcceptanceMachineTests {
    static let app = try! APIOrigin(parsing: "https://app.example")
    static let other = try! APIOrigin(parsing: "https://other.example:8443")

    @Test func anotherOriginsCertificateIsNeverChecked() {
        #expect(CertificateAcceptanceMachine().untrustedCertificate(isWebApp: false, webApp: Self.app) == .showNothing)
    }

    @Test func theWebAppsHostIsCheckedAgainstTheConfiguredAuthorities() {
        #expect(CertificateAcceptanceMachine().untrustedCertificate(isWebApp: true, webApp: Self.app)
            == .checkConfiguredAuthorities(host: "app.example", port: 443))
    }

    @Test func aVouchedCertificateReloadsOnce() {
        var acceptance = CertificateAcceptanceMachine()
        #expect(acceptance.authoritiesReplied(host: "app.example", trusted: true) == .reload)
        #expect(acceptance.state.acceptedHosts == ["app.example"])
        // The same host failing again shows the insecure page: no loop.
        #expect(acceptance.untrustedCertificate(isWebApp: true, webApp: Self.app) == .showInsecure)
        #expect(acceptance.authoritiesReplied(host: "app.example", trusted: true) == .showInsecure)
    }

    @Test func anUnvouchedCertificateShowsTheInsecurePageAndIsAskedAgainNextTime() {
        var acceptance = CertificateAcceptanceMachine()
        #expect(acceptance.authoritiesReplied(host: "app.example", trusted: false) == .showInsecure)
        #expect(acceptance.state.acceptedHosts.isEmpty)
        #expect(acceptance.untrustedCertificate(isWebApp: true, webApp: Self.app)
            == .checkConfiguredAuthorities(host: "app.example", port: 443))
    }

    @Test func eachHostIsAcceptedOnItsOwn() {
        var acceptance = CertificateAcceptanceMachine()
        _ = acceptance.authoritiesReplied(host: "app.example", trusted: true)
        #expect(acceptance.untrustedCertificate(isWebApp: true, webApp: Self.other)
            == .checkConfiguredAuthorities(host: "other.example", port: 8443))
    }

    @Test func anOriginWithoutAPortIsCheckedAtItsSchemesPort() throws {
        let loopback = try APIOrigin(parsing: "http://127.0.0.1")
        #expect(CertificateAcceptanceMachine().untrustedCertificate(isWebApp: true, webApp: loopback)
            == .checkConfiguredAuthorities(host: "127.0.0.1", port: 80))
    }
}
