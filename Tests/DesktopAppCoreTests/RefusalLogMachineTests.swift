@testable import DesktopAppCore
import Testing

/// The memory of logged refusals, at its bounds.
@Suite struct RefusalLogMachineTests {
    /// Every key logged at `now` until the memory is full (256 keys).
    func full(at now: MonotonicInstant) -> RefusalLogMachine {
        var log = RefusalLogMachine()
        for n in 0..<256 {
            let logged = log.refused("k\(n)", at: now)
            #expect(logged == .log)
        }
        return log
    }

    @Test func aFullMemoryOfRecentKeysLogsNothingNew() {
        var log = full(at: moment(0))
        let logged = log.refused("new", at: moment(1))
        #expect(logged == .stayQuiet)
    }

    @Test func keysExactlyTheQuietTimeOldAreForgottenForANewOne() {
        var log = full(at: moment(0))
        let logged = log.refused("new", at: moment(RefusalLogMachine.Settings().quiet.wholeMilliseconds))
        #expect(logged == .log)
        #expect(log.state.lastLogged.count == 1)
    }

    @Test func oneKeyIsQuietWithinTheQuietTimeAndLoggedAgainAtItsEnd() {
        var log = RefusalLogMachine()
        #expect(log.refused("https://evil.example", at: moment(1_000)) == .log)
        #expect(log.refused("https://evil.example", at: moment(1_000 + RefusalLogMachine.Settings().quiet.wholeMilliseconds - 1)) == .stayQuiet)
        #expect(log.refused("https://other.example", at: moment(1_001)) == .log)
        #expect(log.refused("https://evil.example", at: moment(1_000 + RefusalLogMachine.Settings().quiet.wholeMilliseconds)) == .log)
        #expect(log.state.lastLogged["https://evil.example"] == moment(1_000 + RefusalLogMachine.Settings().quiet.wholeMilliseconds))
    }
}
