import SleepTimerCore
import Testing

@Suite struct SleepRouteTests {
    static let family = "a1e4c7d2-3f6b-4a9e-8d1c-2b5e7f9a0d10"
    static let baby = "b7d2e9f4-1c3a-4e6b-8f2d-9a4c6e8b1d21"
    static let timer = "3f2504e0-4f89-41d3-9a0c-0305e82c3301"
    static let path = "families/\(family)/babies/\(baby)/track/sleep?timer=\(timer)"

    @Test func theAgentsLinkIsItsBaseAndTheRoute() throws {
        let route = try SleepRoute(parsing: Self.path)
        let link = DeepLink(base: .default, familySubjectID: route.familySubjectID, babyID: route.babyID, timerID: route.timerID)
        #expect(link.url == DeepLinkBase.appScheme + "://" + Self.path)
        #expect(link.sleep == route)
    }

    @Test func whatItWritesItReadsBack() throws {
        let route = try SleepRoute(parsing: Self.path)
        #expect(route.path == Self.path)
        #expect(try SleepRoute(parsing: route.path) == route)
    }

    @Test(arguments: [
        ("families/\(family)/babies/\(baby)/track/sleep", SleepRoute.Problem.otherShape),
        ("/families/\(family)/babies/\(baby)/track/sleep?timer=\(timer)", .otherShape),
        ("families/\(family)/babies/\(baby)/track/feed?timer=\(timer)", .otherShape),
        ("families/\(family)/babies/\(baby)/track/sleep?timer=\(timer)&x=1", .otherShape),
        ("families/\(family)/babies/\(baby)/track/sleep?timer=\(timer)#top", .otherShape),
        ("families/\(family)/babies/\(baby)/track/sleep?id=\(timer)", .otherShape),
        ("families/nope/babies/\(baby)/track/sleep?timer=\(timer)", .notAnIdentifier(.family)),
        ("families/\(family)/babies/nope/track/sleep?timer=\(timer)", .notAnIdentifier(.baby)),
        ("families/\(family)/babies/\(baby)/track/sleep?timer=nope", .notAnIdentifier(.timer)),
    ])
    func anyOtherTextIsRefusedWithWhy(_ text: String, _ problem: SleepRoute.Problem) {
        #expect(throws: problem) { try SleepRoute(parsing: text) }
    }

    @Test(arguments: [
        "family/\(family)/babies/\(baby)/track/sleep?timer=\(timer)",
        "families/\(family)/baby/\(baby)/track/sleep?timer=\(timer)",
        "families/\(family)/babies/\(baby)/tracks/sleep?timer=\(timer)",
        "families/\(family)/babies/\(baby)/track/sleep/more?timer=\(timer)",
    ])
    func eachFixedSegmentAndTheirNumberAreChecked(_ text: String) {
        #expect(throws: SleepRoute.Problem.otherShape) { try SleepRoute(parsing: text) }
    }

    @Test func theStartPageHasNoRoute() {
        #expect(DeepLink(appHomeAt: .default).sleep == nil)
    }
}
