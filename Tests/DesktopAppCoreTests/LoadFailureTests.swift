import DesktopAppCore
import Testing

@Suite struct LoadFailureTests {
    @Test func theWebAppsOwnFailureShowsTheOfflinePage() {
        #expect(LoadFailure.failed.outcome(isWebApp: true) == .showOffline)
    }

    @Test(arguments: [LoadFailure.cancelled, .stoppedByPolicy])
    func aReplacedOrStoppedLoadIsNoFailure(_ failure: LoadFailure) {
        #expect(failure.outcome(isWebApp: true) == .none)
    }

    @Test(arguments: [LoadFailure.cancelled, .stoppedByPolicy, .failed])
    func anotherOriginsFailureShowsNothingOfIt(_ failure: LoadFailure) {
        #expect(failure.outcome(isWebApp: false) == .showNothing)
    }
}
