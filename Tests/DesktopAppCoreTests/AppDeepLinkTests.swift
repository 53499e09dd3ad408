import DesktopAppCore
import SleepTimerCore
import Testing

@Suite struct AppDeepLinkTests {
    static let family = "a1e4c7d2-3f6b-4a9e-8d1c-2b5e7f9a0d10"
    static let baby = "b7d2e9f4-1c3a-4e6b-8f2d-9a4c6e8b1d21"
    static let timer = "3f2504e0-4f89-41d3-9a0c-0305e82c3301"
    static let valid = "dreamsforlittles://families/\(family)/babies/\(baby)/track/sleep?timer=\(timer)"

    @Test func aSleepLinkGivesItsThreeIdsAndTheWebRoute() throws {
        let link = try AppDeepLink(parsing: Self.valid)
        #expect(link.familySubjectID.string == Self.family)
        #expect(link.babyID.string == Self.baby)
        #expect(link.timerID.string == Self.timer)
        let origin = try APIOrigin(parsing: "https://app.example:8443")
        #expect(link.webURL(origin: origin)
            == "https://app.example:8443/families/\(Self.family)/babies/\(Self.baby)/track/sleep?timer=\(Self.timer)")
        #expect(link.url == Self.valid)
    }

    @Test func theSchemeIsCaseInsensitiveAndIdsAreCanonicalised() throws {
        let link = try AppDeepLink(parsing: "DreamsForLittles://families/\(Self.family.uppercased())/babies/\(Self.baby)/track/sleep?timer=\(Self.timer)")
        #expect(link.familySubjectID.string == Self.family)
        #expect(link.url == Self.valid)
    }

    @Test func theLinkTheAgentBuildsIsAccepted() throws {
        let agentLink = DeepLink(
            base: .default, familySubjectID: FamilySubjectID(Self.family)!, babyID: BabyID(Self.baby)!,
            timerID: TimerID(Self.timer)!)
        #expect(try AppDeepLink(parsing: agentLink.url).url == agentLink.url)
    }

    @Test(arguments: [
        ("javascript:alert(1)", AppDeepLink.Refusal.notTheAppsScheme),
        ("https://app.example/families/\(family)/babies/\(baby)/track/sleep?timer=\(timer)", .notTheAppsScheme),
        ("dreamsforlittles:", .notTheAppsScheme),
        ("dreamsforlittles://", .notTheAppsScheme),
        ("dreamsforlittles://evil.example/families/\(family)/babies/\(baby)/track/sleep?timer=\(timer)", .notASleepLink),
        ("dreamsforlittles://families/\(family)/babies/\(baby)/track/sleep/extra?timer=\(timer)", .notASleepLink),
        ("dreamsforlittles://families/\(family)/babies/\(baby)/track/sleep/?timer=\(timer)", .notASleepLink),
        ("dreamsforlittles://families/\(family)/babies/\(baby)/track/feed?timer=\(timer)", .notASleepLink),
        ("dreamsforlittles://families/\(family)/babies/\(baby)/track/sleep", .notASleepLink),
        ("dreamsforlittles://families/\(family)/babies/\(baby)/track/sleep?timer=\(timer)&next=https://evil.example", .notASleepLink),
        ("dreamsforlittles://families/\(family)/babies/\(baby)/track/sleep?timer=\(timer)#x", .notASleepLink),
        ("dreamsforlittles://families/\(family)/babies/\(baby)/track/sleep?other=1&timer=\(timer)", .notASleepLink),
        ("dreamsforlittles://families/..%2F..%2Fsign-out/babies/\(baby)/track/sleep?timer=\(timer)", .notAnIdentifier(.family)),
        ("dreamsforlittles://families/\(family)%2Fx/babies/\(baby)/track/sleep?timer=\(timer)", .notAnIdentifier(.family)),
        ("dreamsforlittles://families/\(family)/babies/not-a-uuid/track/sleep?timer=\(timer)", .notAnIdentifier(.baby)),
        ("dreamsforlittles://families/\(family)/babies/\(baby)/track/sleep?timer=%33f2504e0-4f89-41d3-9a0c-0305e82c3301", .notAnIdentifier(.timer)),
        ("dreamsforlittles://families/\(family)/babies/\(baby)/track/sleep?timer=", .notAnIdentifier(.timer)),
    ])
    func everyOtherShapeIsRefusedWithItsReason(_ text: String, _ refusal: AppDeepLink.Refusal) {
        #expect(throws: refusal) { try AppDeepLink(parsing: text) }
    }

    @Test func refusalsSayWhyInWords() {
        #expect(AppDeepLink.Refusal.notAnIdentifier(.baby).reason.contains("baby"))
        #expect(AppDeepLink.Refusal.notASleepLink.reason.contains("Sleep timer"))
    }
}
