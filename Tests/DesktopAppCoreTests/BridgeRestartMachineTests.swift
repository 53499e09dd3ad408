import DesktopAppCore
import SleepTimerCore
import Testing

@Suite struct BridgeRestartMachineTests {
    func delay(_ machine: inout BridgeRestartMachine, lasting run: Duration) -> Duration {
        switch machine.bridgeEnded(lasting: run) {
        case .startAgain(let delay): return delay
        }
    }

    @Test func aBridgeThatRanAWhileStartsAgainAtOnce() {
        var machine = BridgeRestartMachine()
        #expect(machine.bridgeEnded(lasting: .milliseconds(60_000)) == .startAgain(after: .zero))
        #expect(machine.bridgeEnded(lasting: .milliseconds(45_000)) == .startAgain(after: .zero))
    }

    @Test func aBridgeThatKeepsEndingWaitsLongerEachTimeUpToHalfAMinute() {
        var machine = BridgeRestartMachine()
        let delays = (0..<10).map { _ in delay(&machine, lasting: .milliseconds(100)).wholeMilliseconds }
        #expect(delays == [0, 250, 500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000])
        #expect(machine.bridgeEnded(lasting: .milliseconds(31_000)) == .startAgain(after: .zero))
    }

    @Test func aRunOfExactlyTheHealthyTimeCountsAsHealthy() {
        var machine = BridgeRestartMachine()
        #expect(BridgeRestartMachine.healthyRun == .seconds(30))
        _ = machine.bridgeEnded(lasting: .milliseconds(100))
        #expect(machine.bridgeEnded(lasting: .milliseconds(100)) == .startAgain(after: .milliseconds(250)))
        #expect(machine.bridgeEnded(lasting: .seconds(30)) == .startAgain(after: .zero))
    }

    @Test func aNewMachineHasSeenNoEnding() {
        var machine = BridgeRestartMachine()
        #expect(machine.state.endings == 0)
        #expect(machine.bridgeEnded(lasting: .zero) == .startAgain(after: .zero))
        #expect(machine.state.endings == 1)
    }
}
