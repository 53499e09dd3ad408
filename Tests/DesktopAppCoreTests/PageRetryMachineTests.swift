@testable import DesktopAppCore
import Testing

@Suite struct PageRetryMachineTests {
    @Test func retriesBackOffToAMinuteAndStartOverAfterASuccess() {
        var retries = PageRetryMachine()
        #expect((0..<8).map { _ in retries.failed() } == [2, 4, 8, 15, 30, 60, 60, 60].map { Duration.seconds($0) })
        retries.loaded()
        #expect(retries.failed() == .seconds(2))
    }

    @Test func theFailuresInARowAreCountedAndASuccessClearsThem() {
        var retries = PageRetryMachine()
        #expect(retries.state.failures == 0)
        _ = retries.failed()
        _ = retries.failed()
        #expect(retries.state.failures == 2)
        retries.loaded()
        #expect(retries == PageRetryMachine())
    }
}
