import DesktopAppCore
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
    @Test func anotherOriginsCertificateIsNeverChecked() {
        #expect(CertificateAcceptance().step(isWebApp: false, host: "evil.example") == .showNothing)
    }

    @Test func theWebAppsHostIsCheckedAgainstTheConfiguredAuthorities() {
        #expect(CertificateAcceptance().step(isWebApp: true, host: "app.example")
            == .checkConfiguredAuthorities(host: "app.example"))
    }

    @Test func aVouchedCertificateReloadsOnce() {
        var acceptance = CertificateAcceptance()
        #expect(acceptance.checked(host: "app.example", trusted: true) == .reload)
        #expect(acceptance.acceptedHosts == ["app.example"])
        // The same host failing again shows the insecure page: no loop.
        #expect(acceptance.step(isWebApp: true, host: "app.example") == .showInsecure)
        #expect(acceptance.checked(host: "app.example", trusted: true) == .showInsecure)
    }

    @Test func anUnvouchedCertificateShowsTheInsecurePageAndIsAskedAgainNextTime() {
        var acceptance = CertificateAcceptance()
        #expect(acceptance.checked(host: "app.example", trusted: false) == .showInsecure)
        #expect(acceptance.acceptedHosts.isEmpty)
        #expect(acceptance.step(isWebApp: true, host: "app.example")
            == .checkConfiguredAuthorities(host: "app.example"))
    }

    @Test func eachHostIsAcceptedOnItsOwn() {
        var acceptance = CertificateAcceptance()
        _ = acceptance.checked(host: "app.example", trusted: true)
        #expect(acceptance.step(isWebApp: true, host: "other.example")
            == .checkConfiguredAuthorities(host: "other.example"))
    }
}
