import DesktopAppCore
import SleepTimerCore
import Testing

@Suite struct NavigationRuleTests {
    let rule = NavigationRule(webOrigin: try! APIOrigin(parsing: "https://app.example:8443"))
    static let gesture = NavigationMoment.navigation(userGesture: true)
    static let scripted = NavigationMoment.navigation(userGesture: false)

    @Test func theWebAppsOriginLoadsInTheWindow() {
        #expect(rule.decision(for: "https://app.example:8443/families/x", at: Self.gesture) == .load)
        #expect(rule.decision(for: "https://APP.example:8443/", at: .mainFrameResponse) == .load)
        #expect(rule.decision(for: "https://app.example:8443/x", at: .newWindow(userGesture: false))
            == .loadInWindow("https://app.example:8443/x"))
    }

    @Test(arguments: [
        "https://app.example/", "https://app.example:8444/", "http://app.example:8443/",
        "https://evil.example/", "https://app.example:8443@evil.example/", "https://app.example.evil.example:8443/",
    ])
    func otherOriginsLeaveOnlyForAPersonsClickInTheTopFrame(_ url: String) {
        #expect(rule.decision(for: url, at: Self.gesture, clickedInTopFrame: true) == .openOutside(url))
        #expect(rule.decision(for: url, at: .newWindow(userGesture: true), clickedInTopFrame: true) == .openOutside(url))
        // A gesture WebKit saw without a click the top frame reported is a
        // frame's: it stays inside the page.
        #expect(rule.decision(for: url, at: Self.gesture) == .load)
        guard case .refuse(let refusal) = rule.decision(for: url, at: .newWindow(userGesture: true)) else {
            Issue.record("a frame's new window left the app")
            return
        }
        #expect(refusal.reason == .withoutClick)
        // A reported click without WebKit's gesture is no person's either.
        #expect(rule.decision(for: url, at: Self.scripted, clickedInTopFrame: true) == .load)
    }

    @Test func thePageBecomingAnotherOriginIsDroppedAndNamesTheOriginOnly() {
        #expect(rule.decision(for: "https://evil.example:444/landing?n=3", at: .mainFrameResponse)
            == .refuse(Refusal(.withoutClick, source: "https://evil.example:444")))
    }

    @Test func aFrameOfAnotherOriginLoadsInsideThePage() {
        #expect(rule.decision(for: "https://127.0.0.1:9999/frame.html", at: Self.scripted) == .load)
        #expect(rule.decision(for: "about:srcdoc", at: Self.scripted) == .load)
    }

    @Test func mailLinksGoToTheDesktopOnlyFromAClickInTheTopFrame() {
        let mail = "mailto:help@dreamsforlittles.example?subject=Hi"
        #expect(rule.decision(for: mail, at: Self.gesture, clickedInTopFrame: true) == .openOutside(mail))
        #expect(rule.decision(for: mail, at: Self.scripted) == .refuse(Refusal(.withoutClick, source: "mailto:")))
        #expect(rule.decision(for: mail, at: Self.gesture) == .refuse(Refusal(.withoutClick, source: "mailto:")))
    }

    @Test(arguments: ["file:///etc/passwd", "ftp://x.example/", "no scheme", "ssh://host"])
    func otherSchemesAreRefusedAtEveryMoment(_ url: String) {
        for moment in [Self.gesture, Self.scripted, .newWindow(userGesture: true), .mainFrameResponse] {
            guard case .refuse(let refusal) = rule.decision(for: url, at: moment, clickedInTopFrame: true) else {
                Issue.record("\(url) was not refused at \(moment)")
                return
            }
            #expect(refusal.reason == .scheme)
        }
    }

    @Test func documentsWithoutAnOriginNeverBecomeThePage() {
        #expect(rule.decision(for: "data:text/html,hi", at: .mainFrameResponse) == .refuse(Refusal(.scheme, source: "data:")))
        #expect(rule.decision(for: "data:text/html,hi", at: .newWindow(userGesture: true)) == .refuse(Refusal(.scheme, source: "data:")))
        #expect(rule.decision(for: "about:blank", at: .mainFrameResponse) == .load)
    }

    @Test func theAppsOwnLinksOpenTheirRoute() throws {
        let link = "dreamsforlittles://families/a1e4c7d2-3f6b-4a9e-8d1c-2b5e7f9a0d10/babies/b7d2e9f4-1c3a-4e6b-8f2d-9a4c6e8b1d21/track/sleep?timer=3f2504e0-4f89-41d3-9a0c-0305e82c3301"
        #expect(rule.decision(for: link, at: Self.gesture) == .openLink(try AppDeepLink(parsing: link)))
        #expect(rule.decision(for: "dreamsforlittles://families/x", at: Self.gesture)
            == .refuse(Refusal(.scheme, source: "dreamsforlittles:")))
    }

    @Test func onlyTheWebAppIsTheWebApp() {
        #expect(rule.isWebApp("https://app.example:8443/x?y#z"))
        #expect(!rule.isWebApp("https://app.example:8444/"))
        #expect(!rule.isWebApp("about:blank"))
        #expect(!rule.isWebApp(nil))
    }
}

/// How a URL's scheme and origin are read.
@Suite struct WebURLTests {
    @Test func aSchemeStartsWithALetterAndHoldsLettersDigitsPlusMinusAndDot() {
        #expect(WebURL("a+b:x")?.scheme == "a+b")
        #expect(WebURL("a-b:x")?.scheme == "a-b")
        #expect(WebURL("a.b:x")?.scheme == "a.b")
        #expect(WebURL("a1:x")?.scheme == "a1")
        #expect(WebURL("1a:x") == nil)
        #expect(WebURL("+a:x") == nil)
        #expect(WebURL("a_b:x") == nil)
        #expect(WebURL("a b:x") == nil)
    }

    @Test func plainHTTPOnLoopbackHasItsOrigin() throws {
        #expect(WebURL("http://127.0.0.1:8080/x")?.origin == (try APIOrigin(parsing: "http://127.0.0.1:8080")))
        #expect(WebURL("https://app.example:8443/x")?.origin == (try APIOrigin(parsing: "https://app.example:8443")))
    }

    @Test func anHTTPSLinkWithoutItsSlashesHasNoOrigin() {
        let url = WebURL("https:app.example:8443/")
        #expect(url?.scheme == "https")
        #expect(url != nil && url?.origin == nil)
    }
}
