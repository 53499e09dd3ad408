import DFLDBus
import DFLTestSupport
import SleepTimerCore
import Testing
@testable import LinkOpening

/// Which way the agent opens a deep link, where it goes when the app does
/// not take it, and which of the desktop's ways the agent and the app try
/// in turn (LinkRouteRule, with the bus's answer read by AppFailure).
@Suite struct LinkRouteRuleTests {
    static let timer = TimerID(Fixtures.timerID)!
    static let appLink = DeepLink(base: .default, familySubjectID: Fixtures.family, babyID: Fixtures.baby, timerID: timer)
    static let webOrigin = try! APIOrigin(parsing: "https://app.dreamsforlittles.example")
    static let webLink = appLink.rebased(on: DeepLinkBase(webOrigin: webOrigin))

    /// The rule's answer after the app failed with this bus error.
    static func afterAppFailed(_ error: BusError, webOrigin: APIOrigin?) -> LinkRouteRule.AfterAppFailed {
        LinkRouteRule.afterAppFailed(appLink, failure: .init(error), webOrigin: webOrigin)
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
        let missing = BusError(name: BusError.Names.serviceUnknown, message: "The name is not activatable")
        #expect(LinkRouteRule.AppFailure(missing) == .notInstalled)
        #expect(Self.afterAppFailed(missing, webOrigin: Self.webOrigin) == .desktop(Self.webLink, .appMissing))
        #expect(Self.afterAppFailed(missing, webOrigin: nil) == .desktop(Self.appLink, .appMissingWithoutWebOrigin))
    }

    @Test func anAppThatFailsLeavesTheLinkAsItIsToTheDesktop() {
        let failed = BusError(name: BusError.Names.noReply, message: "No reply")
        #expect(LinkRouteRule.AppFailure(failed) == .failed("No reply"))
        #expect(Self.afterAppFailed(failed, webOrigin: Self.webOrigin) == .desktop(Self.appLink, .appFailed("No reply")))
        #expect(Self.afterAppFailed(failed, webOrigin: nil) == .desktop(Self.appLink, .appFailed("No reply")))
    }

    @Test func aBusThatRefusesToStartTheAppStartsNoOtherProgram() {
        let refused = BusError(
            name: BusError.Names.limitsExceeded,
            message: "The maximum number of pending activations has been reached")
        #expect(LinkRouteRule.AppFailure(refused) == .refusedByBus("The maximum number of pending activations has been reached"))
        #expect(Self.afterAppFailed(refused, webOrigin: Self.webOrigin)
            == .refused("The maximum number of pending activations has been reached"))
        #expect(Self.afterAppFailed(refused, webOrigin: nil)
            == .refused("The maximum number of pending activations has been reached"))
    }

    @Test func withThePortalOnTheBusItIsTriedFirstAndXdgOpenAfterIt() {
        #expect(LinkRouteRule.desktopWays(portalOnBus: true) == [.portal, .xdgOpen])
    }

    @Test func withoutThePortalOnlyXdgOpenIsTried() {
        #expect(LinkRouteRule.desktopWays(portalOnBus: false) == [.xdgOpen])
        #expect(LinkRouteRule.desktopOpener == "xdg-open")
    }
}
