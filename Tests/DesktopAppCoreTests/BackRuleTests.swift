import DesktopAppCore
import Testing

@Suite struct BackRuleTests {
    let start = "https://app.example/"
    let sleep = "https://app.example/families/f/babies/b/track/sleep"

    @Test func withNoHistoryThereIsNoBack() {
        #expect(BackRule.distance(current: start, history: []) == nil)
    }

    @Test func backGoesToThePreviousPage() {
        #expect(BackRule.distance(current: sleep, history: [start]) == 1)
    }

    @Test func aFailedStartAndItsRetriesAreNoPageToGoBackTo() {
        // The offline page twice at the start's address, then the start.
        #expect(BackRule.distance(current: start, history: [start, start]) == nil)
    }

    @Test func backPassesOverTheRetriesOfThePageShownNow() {
        #expect(BackRule.distance(current: sleep, history: [sleep, sleep, start]) == 3)
    }

    @Test func aPageWithoutAnAddressIsPassedOver() {
        #expect(BackRule.distance(current: sleep, history: [nil, start]) == 2)
    }
}
