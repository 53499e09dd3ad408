@testable import DesktopAppCore
import SleepTimerCore
import Testing

@Suite struct BridgeRestartMachineTests {
    @Test func aBridgeThatRanAWhileStartsAgainAtOnce() {
        var machine = BridgeRestartMachine()
        #expect(machine.bridgeEnded(lasting: .milliseconds(60_000)) == .zero)
        #expect(machine.bridgeEnded(lasting: .milliseconds(45_000)) == .zero)
    }

    @Test func aBridgeThatKeepsEndingWaitsLongerEachTimeUpToHalfAMinute() {
        var machine = BridgeRestartMachine()
        let delays = (0..<10).map { _ in machine.bridgeEnded(lasting: .milliseconds(100)).wholeMilliseconds }
        #expect(delays == [0, 250, 500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000])
        #expect(machine.bridgeEnded(lasting: .milliseconds(31_000)) == .zero)
    }

    @Test func aRunOfExactlyTheHealthyTimeCountsAsHealthy() {
        var machine = BridgeRestartMachine()
        #expect(BridgeRestartMachine.Settings().healthyRun == .seconds(30))
        _ = machine.bridgeEnded(lasting: .milliseconds(100))
        #expect(machine.bridgeEnded(lasting: .milliseconds(100)) == .milliseconds(250))
        #expect(machine.bridgeEnded(lasting: .seconds(30)) == .zero)
    }

    @Test func aNewMachineHasSeenNoEnding() {
        var machine = BridgeRestartMachine()
        #expect(machine.state.endings == 0)
        #expect(machine.bridgeEnded(lasting: .zero) == .zero)
        #expect(machine.state.endings == 1)
    }
}
