import DesktopAppCore
import Testing

@Suite struct LinkRuleTests {
    static let good = AppDeepLinkTests.valid
    static let other = "dreamsforlittles://families/\(AppDeepLinkTests.family)/babies/\(AppDeepLinkTests.baby)/track/sleep?timer=9b2e4c6a-8d1f-4a3b-9c5e-7f1a2b3c4d5e"

    @Test func oneGoodLinkOpens() throws {
        #expect(LinkRule.steps(for: [Self.good]) == [.open(try AppDeepLink(parsing: Self.good))])
    }

    @Test func onlyTheFirstGoodLinkOpens() throws {
        #expect(LinkRule.steps(for: [Self.good, Self.other]) == [.open(try AppDeepLink(parsing: Self.good))])
    }

    @Test func aBadLinkIsRefusedAndTheNextGoodOneStillOpens() throws {
        #expect(LinkRule.steps(for: ["javascript:alert(1)", Self.other])
            == [.refuse(.notTheAppsScheme), .open(try AppDeepLink(parsing: Self.other))])
    }

    @Test func aBadLinkAfterTheOpenedOneIsStillRefused() throws {
        let bad = "dreamsforlittles://families/x/babies/\(AppDeepLinkTests.baby)/track/sleep?timer=\(AppDeepLinkTests.timer)"
        #expect(LinkRule.steps(for: [Self.good, bad])
            == [.open(try AppDeepLink(parsing: Self.good)), .refuse(.notAnIdentifier(.family))])
    }

    @Test func theStartPageShowsTheWindowEachTimeWithoutCountingAsTheOpenedLink() throws {
        #expect(LinkRule.steps(for: ["dreamsforlittles://", Self.good, "DreamsForLittles://"])
            == [.showWindow, .open(try AppDeepLink(parsing: Self.good)), .showWindow])
    }

    @Test func noLinksDoNothing() {
        #expect(LinkRule.steps(for: []).isEmpty)
        #expect(!LinkRule.acts([]))
    }

    /// Only a call that shows or loads something spends the caller's bound.
    @Test func aCallActsWhenItShowsOrOpensAndNotWhenItOnlyRefuses() throws {
        #expect(!LinkRule.acts(LinkRule.steps(for: ["javascript:alert(1)", "dreamsforlittles://x"])))
        #expect(LinkRule.acts(LinkRule.steps(for: ["javascript:alert(1)", Self.good])))
        #expect(LinkRule.acts([.showWindow]))
        #expect(LinkRule.acts([.refuse(.notTheAppsScheme), .showWindow]))
    }
}
