import Testing
@testable import WebViewBridge

@Suite struct CallGateMachineTests {
    private func line(_ number: Int) -> [UInt8] { Array("\(number)".utf8) }

    private func drain(_ gate: inout CallGateMachine) -> [[UInt8]] {
        var started: [[UInt8]] = []
        while case .handOn(let next)? = gate.ready() { started.append(next) }
        return started
    }

    @Test func atMostTheLimitIsInFlightAndTheRestWaitsInOrder() {
        var gate = CallGateMachine(settings: .init(limit: 2))
        for number in 1...5 { gate.arrived(line(number)) }
        #expect(drain(&gate) == [line(1), line(2)])
        #expect(gate.state.inFlight == 2)
        #expect(!gate.readsInput)
        gate.answered()
        #expect(drain(&gate) == [line(3)])
        gate.answered()
        gate.answered()
        #expect(drain(&gate) == [line(4), line(5)])
        #expect(gate.readsInput)  // nothing waits, though two are in flight
        #expect(!gate.isIdle)
    }

    @Test func inputIsReadAgainOnlyOnceNothingWaits() {
        var gate = CallGateMachine(settings: .init(limit: 1))
        #expect(gate.readsInput)
        gate.arrived(line(1))
        gate.arrived(line(2))
        #expect(!gate.readsInput)
        _ = drain(&gate)
        #expect(!gate.readsInput)
        gate.answered()
        _ = drain(&gate)
        #expect(gate.readsInput)
        gate.answered()
        #expect(gate.isIdle)
    }

    @Test func theStandardLimitIs64() {
        var gate = CallGateMachine()
        for number in 1...100 { gate.arrived(line(number)) }
        #expect(drain(&gate).count == 64)
    }

    /// A line handed on is emptied at once, and the queue dropped once all
    /// are handed on: memory stays bounded by what waits.
    @Test func linesHandedOnAreNotKept() {
        var gate = CallGateMachine(settings: .init(limit: 2))
        for number in 1...3 { gate.arrived(line(number)) }
        _ = drain(&gate)
        #expect(gate.state.waiting == [[], [], line(3)])
        #expect(gate.state.head == 2)
        gate.answered()
        #expect(drain(&gate) == [line(3)])
        #expect(gate.state.waiting.isEmpty)
        #expect(gate.state.head == 0)
    }

    @Test func nothingWaitingHandsNothingOnAndAFreshLineStillGoes() {
        var gate = CallGateMachine(settings: .init(limit: 2))
        #expect(gate.ready() == nil)
        gate.arrived(line(1))
        #expect(gate.ready() == .handOn(line(1)))
        #expect(gate.ready() == nil)
        #expect(gate.state.inFlight == 1)
    }
}
