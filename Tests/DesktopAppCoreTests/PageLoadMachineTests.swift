@testable import DesktopAppCore
import SleepTimerCore
import Testing

/// The window's page: its first page, its loads, the app's own pages on a
/// failure, the retry and the recovery.
@Suite struct PageLoadMachineTests {
    static let origin = try! APIOrigin(parsing: "https://app.example")
    static let configured = AppSetup.configured(origin, certificateAuthorities: nil)
    static let start = "https://app.example/"
    static let route = "https://app.example/families/f/babies/b/track/sleep"
    static let elsewhere = "https://other.example/page"

    /// A window showing the web app's start.
    func loadedStart() -> PageLoadMachine {
        var page = PageLoadMachine(setup: Self.configured)
        _ = page.loading(Self.start)
        page.loadStarted()
        return page
    }

    /// A window whose start failed: the offline page shows, a retry waits.
    func offline() -> PageLoadMachine {
        var page = loadedStart()
        _ = page.loadFailed(at: Self.start, .failed)
        return page
    }

    // MARK: The first page

    @Test func aNewWindowShowsNoPageOfItsOwnAndNoFailure() {
        let page = PageLoadMachine(setup: Self.configured)
        #expect(!page.state.showingOwnPage)
        #expect(!page.state.loadFailed)
        #expect(!page.state.retryWaiting)
    }

    @Test func aConfiguredAppStartsWithTheWebApp() {
        #expect(PageLoadMachine(setup: Self.configured).started() == .load(Self.start))
    }

    /// Installed with no configuration and no network: the product's web
    /// app is asked for, its failure shows the offline page naming that
    /// origin, and the app tries again by itself.
    @Test func anAppWithoutAConfigurationStartsWithTheProductsWebAppAndRetriesItOffline() {
        var setup = AppSetupMachine()
        _ = setup.configurationRead(Configuration())
        let made = setup.windowWanted().setup
        var page = PageLoadMachine(setup: made)
        let start = "https://app.dreamsforlittles.com/"
        #expect(page.started() == .load(start))
        _ = page.loading(start)
        page.loadStarted()
        #expect(page.loadFailed(at: start, .failed) == .showOffline(
            html: AppPages.offline(origin: "https://app.dreamsforlittles.com", retryURL: start, retrySeconds: 2),
            at: start, retryAfter: .seconds(2)))
        #expect(page.state.retryWaiting == true)
        #expect(page.retryDue() == .load(start))
    }

    @Test func anInvalidConfigurationShowsItsMistake() {
        let page = PageLoadMachine(setup: .invalid("line 3: no such key"))
        #expect(page.started() == .show(html: AppPages.configurationError("line 3: no such key")))
    }

    // MARK: Links and loads

    @Test func aLinkOpensItsRouteOfTheWebApp() throws {
        let link = try AppDeepLink(parsing: AppDeepLinkTests.valid)
        #expect(PageLoadMachine(setup: Self.configured).linkOpened(link) == .load(link.webURL(origin: Self.origin)))
    }

    @Test func aLinkIsRefusedWhileTheConfigurationCannotBeUsed() throws {
        let link = try AppDeepLink(parsing: AppDeepLinkTests.valid)
        #expect(PageLoadMachine(setup: .invalid("bad")).linkOpened(link) == .refuse)
    }

    @Test func aLoadBecomesWhatTheWindowMeansToShow() {
        var page = PageLoadMachine(setup: Self.configured)
        #expect(page.loading(Self.route) == [.load(Self.route)])
        #expect(page.state.target == Self.route)
        #expect(page.state.showingOwnPage == false)
    }

    @Test func aLoadCancelsTheRetryThatWaits() {
        var page = offline()
        #expect(page.loading(Self.route) == [.cancelRetry, .load(Self.route)])
        #expect(page.state.retryWaiting == false)
        #expect(page.state.showingOwnPage == false)
        // Cancelled once: the next load has no retry to cancel.
        #expect(page.loading(Self.start) == [.load(Self.start)])
    }

    // MARK: Reload

    @Test func reloadOnTheWebAppReloadsThePage() {
        #expect(loadedStart().reloadAsked() == .reloadPage)
    }

    @Test func reloadOnTheOfflinePageLoadsTheWebAppAgain() {
        #expect(offline().reloadAsked() == .load(Self.start))
    }

    @Test func reloadWithNothingLoadedReloadsThePage() {
        #expect(PageLoadMachine(setup: .invalid("bad")).reloadAsked() == .reloadPage)
    }

    // MARK: A failed load

    @Test func theWebAppsFailureShowsTheOfflinePageAtItsAddressAndWaitsToRetry() {
        var page = loadedStart()
        let action = page.loadFailed(at: Self.start, .failed)
        #expect(action == .showOffline(
            html: AppPages.offline(origin: Self.origin.description, retryURL: Self.start, retrySeconds: 2),
            at: Self.start, retryAfter: .seconds(2)))
        #expect(page.state.retryWaiting == true)
        #expect(page.state.showingOwnPage == true)
        #expect(page.state.loadFailed == true)
    }

    @Test func theOfflinePagesRetryLinkLoadsWhatTheWindowMeantToShow() {
        var page = PageLoadMachine(setup: Self.configured)
        _ = page.loading(Self.route)
        // WebKit names the address that failed, a redirect's perhaps.
        guard case .showOffline(let html, let uri, _) = page.loadFailed(at: Self.start + "sign-in", .failed) else {
            Issue.record("no offline page")
            return
        }
        #expect(uri == Self.start + "sign-in")
        #expect(html == AppPages.offline(origin: Self.origin.description, retryURL: Self.route, retrySeconds: 2))
    }

    @Test func eachFailureInARowWaitsLongerThanTheLast() {
        var page = loadedStart()
        var delays: [Duration] = []
        for _ in 0..<3 {
            guard case .showOffline(_, _, let delay) = page.loadFailed(at: Self.start, .failed) else {
                Issue.record("no offline page")
                return
            }
            delays.append(delay)
            #expect(page.retryDue() == .load(Self.start))
            _ = page.loading(Self.start)
            page.loadStarted()
        }
        #expect(delays == [.seconds(2), .seconds(4), .seconds(8)])
    }

    @Test(arguments: [LoadFailure.cancelled, .stoppedByPolicy])
    func aReplacedOrStoppedLoadIsLeftToWebKit(_ failure: LoadFailure) {
        var page = loadedStart()
        #expect(page.loadFailed(at: Self.start, failure) == .letWebKitHandle)
        #expect(page.state.retryWaiting == false)
        #expect(page.state.showingOwnPage == false)
    }

    @Test func anotherOriginsFailureShowsNothingAndNoRetry() {
        var page = loadedStart()
        #expect(page.loadFailed(at: Self.elsewhere, .failed) == .showNothing)
        #expect(page.state.retryWaiting == false)
    }

    @Test func aFailureWithoutAnErrorOrAnAddressIsLeftToWebKit() {
        var page = loadedStart()
        #expect(page.loadFailed(at: Self.start, nil) == .letWebKitHandle)
        #expect(page.loadFailed(at: nil, .failed) == .letWebKitHandle)
        // Still a failure: its end starts no back-off over.
        #expect(page.state.loadFailed == true)
    }

    @Test func withoutAUsableConfigurationAFailureIsLeftToWebKit() {
        var page = PageLoadMachine(setup: .invalid("bad"))
        #expect(page.loadFailed(at: Self.start, .failed) == .letWebKitHandle)
    }

    // MARK: How a load ends

    @Test func theWebAppLoadedStartsTheBackOffOver() {
        var page = offline()
        #expect(page.retryDue() == .load(Self.start))
        _ = page.loading(Self.start)
        page.loadStarted()
        page.loadFinished(at: Self.start)
        #expect(page.state.retry == PageRetryMachine())
        // The next failure waits the shortest time again.
        guard case .showOffline(_, _, let delay) = page.loadFailed(at: Self.start, .failed) else {
            Issue.record("no offline page")
            return
        }
        #expect(delay == .seconds(2))
    }

    @Test func theOfflinePageLoadedStartsNothingOver() {
        var page = offline()
        // The offline page's own load, at the web app's address.
        page.loadStarted()
        page.loadFinished(at: Self.start)
        #expect(page.state.retry != PageRetryMachine())
    }

    @Test func aFailedLoadsEndStartsNothingOver() {
        var page = PageLoadMachine(setup: Self.configured)
        _ = page.loading(Self.start)
        page.loadStarted()
        _ = page.loadFailed(at: Self.start, .failed)
        _ = page.loading(Self.start)
        // No new start: the failed load ends.
        page.loadFinished(at: Self.start)
        #expect(page.state.retry != PageRetryMachine())
    }

    @Test func anotherOriginLoadedStartsNothingOver() {
        var page = offline()
        _ = page.loading(Self.elsewhere)
        page.loadStarted()
        page.loadFinished(at: Self.elsewhere)
        #expect(page.state.retry != PageRetryMachine())
    }

    @Test func aNewLoadClearsTheLastFailure() {
        var page = offline()
        page.loadStarted()
        #expect(page.state.loadFailed == false)
    }

    // MARK: A certificate WebKit refused

    @Test func theWebAppsCertificateIsCheckedAgainstTheConfiguredAuthorities() {
        var page = loadedStart()
        #expect(page.certificateRefused(at: Self.start, certificateGiven: true)
            == .checkConfiguredAuthorities(host: "app.example", port: 443))
        #expect(page.state.loadFailed == true)
    }

    @Test func anotherOriginsCertificateShowsNothing() {
        var page = loadedStart()
        #expect(page.certificateRefused(at: Self.elsewhere, certificateGiven: true) == .showNothing)
        #expect(page.state.retryWaiting == false)
    }

    @Test func aRefusalWithoutACertificateOrAWebAppIsLeftToWebKit() {
        var page = loadedStart()
        #expect(page.certificateRefused(at: Self.start, certificateGiven: false) == .letWebKitHandle)
        var unconfigured = PageLoadMachine(setup: .invalid("bad"))
        #expect(unconfigured.certificateRefused(at: Self.start, certificateGiven: true) == .letWebKitHandle)
    }

    @Test func aVouchedCertificateLoadsWhatTheWindowMeantToShow() {
        var page = PageLoadMachine(setup: Self.configured)
        _ = page.loading(Self.route)
        _ = page.certificateRefused(at: Self.start, certificateGiven: true)
        #expect(page.authoritiesAnswered(host: "app.example", trusted: true, at: Self.start) == .load(Self.route))
        #expect(page.state.retryWaiting == false)
    }

    @Test func anUnvouchedCertificateShowsTheInsecurePageAndWaitsToRetry() {
        var page = loadedStart()
        _ = page.certificateRefused(at: Self.start, certificateGiven: true)
        #expect(page.authoritiesAnswered(host: "app.example", trusted: false, at: Self.start) == .showInsecure(
            html: AppPages.insecure(origin: Self.origin.description, retrySeconds: 2), at: Self.start,
            retryAfter: .seconds(2)))
        #expect(page.state.retryWaiting == true)
        #expect(page.state.showingOwnPage == true)
    }

    @Test func aHostAcceptedOnceThatFailsAgainShowsTheInsecurePage() {
        var page = loadedStart()
        _ = page.certificateRefused(at: Self.start, certificateGiven: true)
        _ = page.authoritiesAnswered(host: "app.example", trusted: true, at: Self.start)
        _ = page.loading(Self.start)
        // No second check, so no loop of reloads.
        #expect(page.certificateRefused(at: Self.start, certificateGiven: true) == .showInsecure(
            html: AppPages.insecure(origin: Self.origin.description, retrySeconds: 2), at: Self.start,
            retryAfter: .seconds(2)))
        #expect(page.state.retryWaiting == true)
    }

    // MARK: Recovery

    @Test func anEndedWebProcessLoadsWhatTheWindowMeantToShow() {
        var page = PageLoadMachine(setup: Self.configured)
        _ = page.loading(Self.route)
        #expect(page.webProcessEnded() == .load(Self.route))
    }

    @Test func anEndedWebProcessBeforeAnyLoadShowsTheFirstPageAgain() {
        #expect(PageLoadMachine(setup: .invalid("bad")).webProcessEnded() == .start)
    }

    @Test func theRetrysTimeLoadsWhatTheWindowMeansToShow() {
        var page = offline()
        #expect(page.retryDue() == .load(Self.start))
        #expect(page.state.retryWaiting == false)
        // Its timer is spent: the load has nothing to cancel.
        #expect(page.loading(Self.start) == [.load(Self.start)])
    }

    @Test func aRetryWithNothingToLoadDoesNothing() {
        var page = PageLoadMachine(setup: Self.configured)
        #expect(page.retryDue() == nil)
    }

    @Test func theNetworkBackLoadsAtOnceWhileARetryWaits() {
        #expect(offline().networkCameBack() == .load(Self.start))
    }

    @Test func theNetworkBackLoadsNothingWhenNoRetryWaits() {
        #expect(loadedStart().networkCameBack() == nil)
        var page = offline()
        _ = page.retryDue()
        #expect(page.networkCameBack() == nil)
    }
}
