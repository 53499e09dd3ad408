import DesktopAppCore
import SleepTimerCore
import Testing

@Suite struct NavigationPolicyTests {
    let policy = NavigationPolicy(webOrigin: try! APIOrigin(parsing: "https://app.example:8443"))
    static let click = NavigationMoment.navigation(userGesture: true)
    static let scripted = NavigationMoment.navigation(userGesture: false)

    @Test func theWebAppsOriginLoadsInTheWindow() {
        #expect(policy.decide("https://app.example:8443/families/x", at: Self.click) == .load)
        #expect(policy.decide("https://APP.example:8443/", at: .mainFrameResponse) == .load)
        #expect(policy.decide("https://app.example:8443/x", at: .newWindow) == .loadInWindow("https://app.example:8443/x"))
    }

    @Test(arguments: [
        "https://app.example/", "https://app.example:8444/", "http://app.example:8443/",
        "https://evil.example/", "https://app.example:8443@evil.example/", "https://app.example.evil.example:8443/",
    ])
    func otherOriginsOpenOutsideWhenClickedOrAsThePage(_ url: String) {
        #expect(policy.decide(url, at: Self.click) == .openOutside(url))
        #expect(policy.decide(url, at: .newWindow) == .openOutside(url))
        #expect(policy.decide(url, at: .mainFrameResponse) == .openOutside(url))
    }

    @Test func aFrameOfAnotherOriginLoadsInsideThePage() {
        #expect(policy.decide("https://127.0.0.1:9999/frame.html", at: Self.scripted) == .load)
        #expect(policy.decide("about:srcdoc", at: Self.scripted) == .load)
    }

    @Test func mailLinksGoToTheDesktop() {
        #expect(policy.decide("mailto:help@dreamsforlittles.example", at: Self.scripted)
            == .openOutside("mailto:help@dreamsforlittles.example"))
    }

    @Test(arguments: ["file:///etc/passwd", "ftp://x.example/", "no scheme", "ssh://host"])
    func otherSchemesAreRefusedAtEveryMoment(_ url: String) {
        for moment in [Self.click, Self.scripted, .newWindow, .mainFrameResponse] {
            guard case .refuse = policy.decide(url, at: moment) else {
                Issue.record("\(url) was not refused at \(moment)")
                return
            }
        }
    }

    @Test func documentsWithoutAnOriginNeverBecomeThePage() {
        #expect(policy.decide("data:text/html,hi", at: .mainFrameResponse) == .refuse(scheme: "data"))
        #expect(policy.decide("data:text/html,hi", at: .newWindow) == .refuse(scheme: "data"))
        #expect(policy.decide("about:blank", at: .mainFrameResponse) == .load)
    }

    @Test func theAppsOwnLinksOpenTheirRoute() throws {
        let link = "dreamsforlittles://families/a1e4c7d2-3f6b-4a9e-8d1c-2b5e7f9a0d10/babies/b7d2e9f4-1c3a-4e6b-8f2d-9a4c6e8b1d21/track/sleep?timer=3f2504e0-4f89-41d3-9a0c-0305e82c3301"
        #expect(policy.decide(link, at: Self.click) == .openLink(try AppDeepLink(parsing: link)))
        #expect(policy.decide("dreamsforlittles://families/x", at: Self.click) == .refuse(scheme: "dreamsforlittles"))
    }

    @Test func onlyTheWebAppIsTheWebApp() {
        #expect(policy.isWebApp("https://app.example:8443/x?y#z"))
        #expect(!policy.isWebApp("https://app.example:8444/"))
        #expect(!policy.isWebApp("about:blank"))
        #expect(!policy.isWebApp(nil))
    }
}
