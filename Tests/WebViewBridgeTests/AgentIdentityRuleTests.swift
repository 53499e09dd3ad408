import Testing
@testable import WebViewBridge

@Suite struct AgentIdentityRuleTests {
    private typealias Rule = AgentIdentityRule
    private static let bus = "0123456789abcdef0123456789abcdef"

    @Test func theOwnerTheFileNamesOnThisBusIsTrustedAtItsUniqueName() {
        #expect(Rule.decide(owner: ":1.42", busID: Self.bus, published: .name(busID: Self.bus, uniqueName: ":1.42"))
            == .trust(uniqueName: ":1.42"))
    }

    @Test func anotherOwnerIsRefusedAndNamed() {
        // The other installation's agent, or an impostor, owns the name.
        #expect(Rule.decide(owner: ":1.7", busID: Self.bus, published: .name(busID: Self.bus, uniqueName: ":1.42"))
            == .refuse(.anotherOwner(owner: ":1.7", published: ":1.42")))
    }

    @Test func noPublishedNameTrustsNobody() {
        #expect(Rule.decide(owner: ":1.42", busID: Self.bus, published: .missing) == .refuse(.notPublished))
    }

    @Test func anUnusableFileTrustsNobodyAndSaysWhy() {
        #expect(Rule.decide(owner: ":1.42", busID: Self.bus, published: .unusable(reason: "a symbolic link"))
            == .refuse(.unusable(reason: "a symbolic link")))
    }

    @Test func aNameOfAnotherBusIsNotTrustedEvenWhenTheUniqueNamesAreAlike() {
        // An agent that crashed left its file; the next login's bus counts
        // unique names from the start again.
        #expect(Rule.decide(owner: ":1.42", busID: Self.bus, published: .name(busID: "ffff", uniqueName: ":1.42"))
            == .refuse(.anotherBus))
    }

    @Test func aBusThatDidNotSayItsIdTrustsNobody() {
        #expect(Rule.decide(owner: ":1.42", busID: nil, published: .name(busID: Self.bus, uniqueName: ":1.42"))
            == .refuse(.unknownBus))
    }

    @Test func noOwnerOrOneThatIsNotAUniqueNameIsRefused() {
        #expect(Rule.decide(owner: nil, busID: Self.bus, published: .name(busID: Self.bus, uniqueName: ":1.42"))
            == .refuse(.noOwner))
        // Only the bus daemon's unique names are owners; a file naming a
        // well-known name matches nothing.
        let wellKnown = "com.dreamsforlittles.DreamsForLittles.SleepTimers1"
        #expect(Rule.decide(owner: wellKnown, busID: Self.bus, published: .name(busID: Self.bus, uniqueName: wellKnown))
            == .refuse(.noOwner))
    }

    @Test func theReasonsSayWhoOwnsTheName() {
        #expect(Rule.Reason.anotherOwner(owner: ":1.7", published: ":1.42").description
            == "the agent's name is owned by :1.7, not by this installation's agent (:1.42)")
        #expect(Rule.Reason.notPublished.description == "this installation's agent has published no bus name")
    }
}
