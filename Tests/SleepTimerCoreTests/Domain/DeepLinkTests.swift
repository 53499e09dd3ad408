import DFLTestSupport
import Testing
import SleepTimerCore

@Suite struct DeepLinkTests {
    let family = FamilySubjectID(Fixtures.familyID)!
    let baby = BabyID(Fixtures.babyID)!
    let timer = TimerID(Fixtures.timerID)!

    @Test func theDefaultBaseIsTheAppsScheme() {
        let link = DeepLink(base: .default, familySubjectID: family, babyID: baby, timerID: timer)
        #expect(link.url == "dreamsforlittles://families/\(Fixtures.familyID)/babies/\(Fixtures.babyID)/track/sleep?timer=\(Fixtures.timerID)")
    }

    @Test func aWebOriginBaseGivesAnHTTPSLink() throws {
        let base = try DeepLinkBase(parsing: "https://App.DreamsForLittles.example")
        let link = DeepLink(base: base, familySubjectID: family, babyID: baby, timerID: timer)
        #expect(link.url.hasPrefix("https://app.dreamsforlittles.example/families/\(Fixtures.familyID)/babies/"))
    }

    @Test func theAppsHomeIsTheBareSchemeOrTheOriginsRoot() throws {
        #expect(DeepLink(appHomeAt: .default).url == "dreamsforlittles://")
        #expect(DeepLink(appHomeAt: try DeepLinkBase(parsing: "https://App.example")).url == "https://app.example/")
    }

    @Test func aCustomSchemeIsAccepted() throws {
        #expect(try DeepLinkBase(parsing: "DFL-Beta://").description == "dfl-beta://")
    }

    @Test(arguments: [
        ("javascript://", DeepLinkBase.Problem.reservedScheme), ("file://", .reservedScheme),
        ("data://", .reservedScheme), ("http://", .reservedScheme),
        ("-dreams://", .malformed), ("1dreams://", .malformed), ("dreams", .malformed),
        ("dreams://extra/path", .malformed), ("dre ams://", .malformed), ("://", .malformed),
        ("https://app.example/path", .origin(.hasPath)), ("https://u@app.example", .origin(.hasUserInfo)),
    ])
    func refusesBasesThatAreNotTheAppsOwn(_ text: String, _ problem: DeepLinkBase.Problem) {
        #expect(throws: problem) { try DeepLinkBase(parsing: text) }
    }

    @Test func aSchemeMayStartWithAnyLetterAndHoldDigits() throws {
        #expect(try DeepLinkBase(parsing: "a0z9://").description == "a0z9://")
        #expect(try DeepLinkBase(parsing: "z9.a+0-://").description == "z9.a+0-://")
    }

    @Test func aLinkNeverStartsWithADash() throws {
        for base in [DeepLinkBase.default, try DeepLinkBase(parsing: "x://"), try DeepLinkBase(parsing: "https://a.example")] {
            let link = DeepLink(base: base, familySubjectID: family, babyID: baby, timerID: timer)
            #expect(!link.url.hasPrefix("-"))
            #expect(link.url.unicodeScalars.allSatisfy { $0.isASCII && $0.value > 0x20 })
        }
    }

    @Test func theTimerBuildsItsOwnLink() throws {
        let mirrored = try Fixtures.mirrorRule.mirroredTimer(for: Fixtures.request(), now: Fixtures.now)
        #expect(mirrored.deepLink(base: .default) == DeepLink(base: .default, familySubjectID: family, babyID: baby, timerID: timer))
    }
}

@Suite struct DeepLinkRebasingTests {
    @Test func aSchemeLinkRebasedOnTheWebOriginKeepsItsIdsAndRoute() throws {
        let link = DeepLink(
            base: .default, familySubjectID: FamilySubjectID("c56a4180-65aa-42ec-a945-5fd21dec0538")!,
            babyID: BabyID("7d444840-9dc0-11d1-b245-5ffdce74fad2")!, timerID: TimerID("3f2504e0-4f89-41d3-9a0c-0305e82c3301")!)
        #expect(link.base.isAppScheme)
        let web = link.rebased(on: DeepLinkBase(webOrigin: try APIOrigin(parsing: "https://app.example")))
        #expect(!web.base.isAppScheme)
        #expect(web.url == "https://app.example/families/c56a4180-65aa-42ec-a945-5fd21dec0538/babies/7d444840-9dc0-11d1-b245-5ffdce74fad2/track/sleep?timer=3f2504e0-4f89-41d3-9a0c-0305e82c3301")
        #expect(!web.isAppHome)
    }

    @Test func theAppsStartPageRebasedIsTheWebAppsStartPage() throws {
        let home = DeepLink(appHomeAt: .default)
        #expect(home.isAppHome)
        #expect(home.rebased(on: DeepLinkBase(webOrigin: try APIOrigin(parsing: "https://app.example"))).url == "https://app.example/")
    }
}
