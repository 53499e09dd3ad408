import Testing
@testable import WebViewBridge

@Suite struct CallGateTests {
    private func line(_ number: Int) -> [UInt8] { Array("\(number)".utf8) }

    private func drain(_ gate: inout CallGate) -> [[UInt8]] {
        var started: [[UInt8]] = []
        while let next = gate.next() { started.append(next) }
        return started
    }

    @Test func atMostTheLimitIsInFlightAndTheRestWaitsInOrder() {
        var gate = CallGate(limit: 2)
        for number in 1...5 { gate.arrived(line(number)) }
        #expect(drain(&gate) == [line(1), line(2)])
        #expect(gate.inFlight == 2)
        #expect(!gate.readsInput)
        gate.finished()
        #expect(drain(&gate) == [line(3)])
        gate.finished()
        gate.finished()
        #expect(drain(&gate) == [line(4), line(5)])
        #expect(gate.readsInput)  // nothing waits, though two are in flight
        #expect(!gate.isIdle)
    }

    @Test func inputIsReadAgainOnlyOnceNothingWaits() {
        var gate = CallGate(limit: 1)
        #expect(gate.readsInput)
        gate.arrived(line(1))
        gate.arrived(line(2))
        #expect(!gate.readsInput)
        _ = drain(&gate)
        #expect(!gate.readsInput)
        gate.finished()
        _ = drain(&gate)
        #expect(gate.readsInput)
        gate.finished()
        #expect(gate.isIdle)
    }

    @Test func theStandardLimitIs64() {
        var gate = CallGate()
        for number in 1...100 { gate.arrived(line(number)) }
        #expect(drain(&gate).count == 64)
    }
}
