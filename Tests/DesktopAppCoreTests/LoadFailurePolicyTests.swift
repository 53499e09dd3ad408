import DesktopAppCore
import SleepTimerCore
import Testing

@Suite struct LoadFailurePolicyTests {
    @Test func theWebAppsOwnFailureShowsTheOfflinePage() {
        #expect(LoadFailure.failed.outcome(isWebApp: true) == .showOffline)
    }

    @Test(arguments: [LoadFailure.cancelled, .stoppedByPolicy])
    func aReplacedOrStoppedLoadIsNoFailure(_ failure: LoadFailure) {
        #expect(failure.outcome(isWebApp: true) == .none)
    }

    @Test(arguments: [LoadFailure.cancelled, .stoppedByPolicy, .failed])
    func anotherOriginsFailureShowsNothingOfIt(_ failure: LoadFailure) {
        #expect(failure.outcome(isWebApp: false) == .showNothing)
    }
}

@Suite struct CertificateAcceptanceTests {
    static let app = try! APIOrigin(parsing: "https://app.example")
    static let other = try! APIOrigin(parsing: "https://other.example:8443")

    @Test func anotherOriginsCertificateIsNeverChecked() {
        #expect(CertificateAcceptance().step(isWebApp: false, webApp: Self.app) == .showNothing)
    }

    @Test func theWebAppsHostIsCheckedAgainstTheConfiguredAuthorities() {
        #expect(CertificateAcceptance().step(isWebApp: true, webApp: Self.app)
            == .checkConfiguredAuthorities(host: "app.example", port: 443))
    }

    @Test func aVouchedCertificateReloadsOnce() {
        var acceptance = CertificateAcceptance()
        #expect(acceptance.checked(host: "app.example", trusted: true) == .reload)
        #expect(acceptance.acceptedHosts == ["app.example"])
        // The same host failing again shows the insecure page: no loop.
        #expect(acceptance.step(isWebApp: true, webApp: Self.app) == .showInsecure)
        #expect(acceptance.checked(host: "app.example", trusted: true) == .showInsecure)
    }

    @Test func anUnvouchedCertificateShowsTheInsecurePageAndIsAskedAgainNextTime() {
        var acceptance = CertificateAcceptance()
        #expect(acceptance.checked(host: "app.example", trusted: false) == .showInsecure)
        #expect(acceptance.acceptedHosts.isEmpty)
        #expect(acceptance.step(isWebApp: true, webApp: Self.app)
            == .checkConfiguredAuthorities(host: "app.example", port: 443))
    }

    @Test func eachHostIsAcceptedOnItsOwn() {
        var acceptance = CertificateAcceptance()
        _ = acceptance.checked(host: "app.example", trusted: true)
        #expect(acceptance.step(isWebApp: true, webApp: Self.other)
            == .checkConfiguredAuthorities(host: "other.example", port: 8443))
    }
}
