import DFLTestSupport
import SleepTimerCore
import Testing

/// Which way a deep link is opened, where it goes when the app does not
/// take it, and which of the desktop's ways the agent and the app try in
/// turn. The bus's answer is read into `AppFailure` by LinkOpening
/// (AppFailureTests there).
@Suite struct LinkRouteRuleTests {
    static let timer = TimerID(Fixtures.timerID)!
    static let appLink = DeepLink(base: .default, familySubjectID: Fixtures.family, babyID: Fixtures.baby, timerID: timer)
    static let webOrigin = try! APIOrigin(parsing: "https://app.dreamsforlittles.example")
    static let webLink = appLink.rebased(on: DeepLinkBase(webOrigin: webOrigin))

    static func afterAppFailed(_ failure: LinkRouteRule.AppFailure, webOrigin: APIOrigin) -> LinkRouteRule.AfterAppFailed {
        LinkRouteRule.afterAppFailed(appLink, failure: failure, webOrigin: webOrigin)
    }

    @Test func theConfiguredOpenerWinsForEveryLink() {
        #expect(LinkRouteRule.firstWay(for: Self.appLink, configuredProgram: "/usr/bin/opener") == .program("/usr/bin/opener", Self.appLink))
        #expect(LinkRouteRule.firstWay(for: Self.webLink, configuredProgram: "/usr/bin/opener") == .program("/usr/bin/opener", Self.webLink))
    }

    @Test func aLinkOfTheAppsSchemeGoesToTheAppAndAWebLinkToTheDesktop() {
        #expect(LinkRouteRule.firstWay(for: Self.appLink, configuredProgram: nil) == .app(Self.appLink))
        #expect(LinkRouteRule.firstWay(for: DeepLink(appHomeAt: .default), configuredProgram: nil) == .app(DeepLink(appHomeAt: .default)))
        #expect(LinkRouteRule.firstWay(for: Self.webLink, configuredProgram: nil) == .desktop(Self.webLink))
    }

    @Test func withoutTheAppTheWebAppOpensInTheBrowser() {
        #expect(Self.afterAppFailed(.notInstalled, webOrigin: Self.webOrigin) == .desktop(Self.webLink, .appMissing))
    }

    @Test func withoutTheAppAndWithNoWebOriginConfiguredTheProductsWebAppOpens() throws {
        let route = Self.afterAppFailed(.notInstalled, webOrigin: Configuration().webOrigin)
        guard case .desktop(let link, .appMissing) = route else {
            Issue.record("\(route)")
            return
        }
        #expect(link.url.hasPrefix("https://app.dreamsforlittles.com/"))
        #expect(link == Self.appLink.rebased(on: DeepLinkBase(webOrigin: ProductOrigins.webApp)))
    }

    @Test func anAppThatFailsLeavesTheLinkAsItIsToTheDesktop() {
        #expect(Self.afterAppFailed(.failed("No reply"), webOrigin: Self.webOrigin) == .desktop(Self.appLink, .appFailed("No reply")))
        #expect(Self.afterAppFailed(.failed("No reply"), webOrigin: ProductOrigins.webApp) == .desktop(Self.appLink, .appFailed("No reply")))
    }

    @Test func aBusThatRefusesToStartTheAppStartsNoOtherProgram() {
        let message = "The maximum number of pending activations has been reached"
        #expect(Self.afterAppFailed(.refusedByBus(message), webOrigin: Self.webOrigin) == .refused(message))
        #expect(Self.afterAppFailed(.refusedByBus(message), webOrigin: ProductOrigins.webApp) == .refused(message))
    }

    @Test func withThePortalOnTheBusItIsTriedFirstAndXdgOpenAfterIt() {
        #expect(LinkRouteRule.desktopWays(portalOnBus: true) == [.portal, .xdgOpen])
    }

    @Test func withoutThePortalOnlyXdgOpenIsTried() {
        #expect(LinkRouteRule.desktopWays(portalOnBus: false) == [.xdgOpen])
        #expect(LinkRouteRule.desktopOpener == "xdg-open")
    }
}
