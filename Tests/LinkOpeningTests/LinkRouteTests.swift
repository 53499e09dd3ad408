import DFLDBus
import DFLTestSupport
import SleepTimerCore
import Testing
@testable import LinkOpening

/// Which way the agent opens a deep link, and where it goes when the app
/// does not take it.
@Suite struct LinkRouteTests {
    static let timer = TimerID(Fixtures.timerID)!
    static let appLink = DeepLink(base: .default, familySubjectID: Fixtures.family, babyID: Fixtures.baby, timerID: timer)
    static let webOrigin = try! APIOrigin(parsing: "https://app.dreamsforlittles.example")
    static let webLink = appLink.rebased(on: DeepLinkBase(webOrigin: webOrigin))

    @Test func theConfiguredOpenerWinsForEveryLink() {
        #expect(LinkRoute.first(Self.appLink, configuredProgram: "/usr/bin/opener") == .program("/usr/bin/opener", Self.appLink))
        #expect(LinkRoute.first(Self.webLink, configuredProgram: "/usr/bin/opener") == .program("/usr/bin/opener", Self.webLink))
    }

    @Test func aLinkOfTheAppsSchemeGoesToTheAppAndAWebLinkToTheDesktop() {
        #expect(LinkRoute.first(Self.appLink, configuredProgram: nil) == .app(Self.appLink))
        #expect(LinkRoute.first(DeepLink(appHomeAt: .default), configuredProgram: nil) == .app(DeepLink(appHomeAt: .default)))
        #expect(LinkRoute.first(Self.webLink, configuredProgram: nil) == .desktop(Self.webLink, .webLink))
    }

    @Test func withoutTheAppTheWebAppOpensInTheBrowser() {
        let missing = BusError(name: BusError.Names.serviceUnknown, message: "The name is not activatable")
        #expect(LinkRoute.afterAppFailed(Self.appLink, error: missing, webOrigin: Self.webOrigin)
            == .desktop(Self.webLink, .appMissing))
        #expect(LinkRoute.afterAppFailed(Self.appLink, error: missing, webOrigin: nil)
            == .desktop(Self.appLink, .appMissingWithoutWebOrigin))
    }

    @Test func anAppThatFailsLeavesTheLinkAsItIsToTheDesktop() {
        let failed = BusError(name: BusError.Names.noReply, message: "No reply")
        #expect(LinkRoute.afterAppFailed(Self.appLink, error: failed, webOrigin: Self.webOrigin)
            == .desktop(Self.appLink, .appFailed("No reply")))
    }

    @Test func aBusThatRefusesToStartTheAppStartsNoOtherProgram() {
        let refused = BusError(
            name: BusError.Names.limitsExceeded,
            message: "The maximum number of pending activations has been reached")
        #expect(LinkRoute.afterAppFailed(Self.appLink, error: refused, webOrigin: Self.webOrigin)
            == .refused("The maximum number of pending activations has been reached"))
        #expect(LinkRoute.afterAppFailed(Self.appLink, error: refused, webOrigin: nil)
            == .refused("The maximum number of pending activations has been reached"))
    }
}
