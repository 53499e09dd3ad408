import DesktopAppCore
import Testing

@Suite struct BackStepTests {
    let start = "https://app.example/"
    let sleep = "https://app.example/families/f/babies/b/track/sleep"

    @Test func withNoHistoryThereIsNoBack() {
        #expect(BackStep.distance(current: start, history: []) == nil)
    }

    @Test func backGoesToThePreviousPage() {
        #expect(BackStep.distance(current: sleep, history: [start]) == 1)
    }

    @Test func aFailedStartAndItsRetriesAreNoPageToGoBackTo() {
        // The offline page twice at the start's address, then the start.
        #expect(BackStep.distance(current: start, history: [start, start]) == nil)
    }

    @Test func backPassesOverTheRetriesOfThePageShownNow() {
        #expect(BackStep.distance(current: sleep, history: [sleep, sleep, start]) == 3)
    }

    @Test func aPageWithoutAnAddressIsPassedOver() {
        #expect(BackStep.distance(current: sleep, history: [nil, start]) == 2)
    }
}
