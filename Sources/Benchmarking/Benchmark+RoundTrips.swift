import DFLDBus
import Foundation
import SleepTimersAPI

/// Round trips: the bus's own Peer.Ping, the C libdbus Echo service (the
/// floor), then the agent's List and Mirror.
extension Benchmark {
    func timeCalls(_ count: Int, _ call: () throws -> Void) rethrows -> (samples: Samples, perSecond: Double) {
        for _ in 0..<max(5, count / 20) { try call() }  // warm-up
        var values: [Double] = []
        values.reserveCapacity(count)
        let start = Clock.monotonicNanoseconds()
        for _ in 0..<count {
            let before = Clock.monotonicNanoseconds()
            try call()
            values.append(Double(Clock.monotonicNanoseconds() - before) / 1000)
        }
        let seconds = Double(Clock.monotonicNanoseconds() - start) / 1e9
        return (Samples(values), Double(count) / seconds)
    }

    func roundTrips() throws {
        let connection = environment.connection!
        let ping = try timeCalls(counts.roundTrips) {
            _ = try connection.callAndWait(Message.methodCall(
                destination: StandardInterface.Bus.name, path: StandardInterface.Bus.path,
                interface: StandardInterface.Peer.name, member: StandardInterface.Peer.ping))
        }
        record(ping, median: .pingMedian, rate: .pingRate)

        let echoService = try environment.start(floors + "/echo-service")
        _ = try environment.waitForName("com.dreamsforlittles.Bench.Echo")
        let echo = try timeCalls(counts.roundTrips) {
            _ = try connection.callAndWait(Message.methodCall(
                destination: "com.dreamsforlittles.Bench.Echo", path: "/com/dreamsforlittles/Bench/Echo",
                interface: "com.dreamsforlittles.Bench.Echo", member: "Echo").append(.string("hello")))
        }
        echoService.stop()
        record(echo, median: .echoMedian, p99: .echoP99, rate: .echoRate)

        let agent = try environment.startAgent(try environment.agentEnvironment("round-trips-\(round)"))
        _ = try environment.waitForName(BenchEnvironment.agentName)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        for index in 0..<3 {
            _ = try environment.agentCall(SleepTimers1.Mirror.self, environment.mirrorArgument(
                id: UUID().uuidString.lowercased(), token: "dflnat_bench_list_\(index)_0123456789",
                startedAt: now - 60_000, expiresAt: now + 3_600_000, revision: 1))
        }
        // The reply is not decoded, as the Echo's is not: the same client work.
        let list = try timeCalls(counts.roundTrips) {
            _ = try connection.callAndWait(BenchEnvironment.agentMessage(SleepTimers1.List.self))
        }
        record(list, median: .listMedian, p99: .listP99, rate: .listRate)
        let mirrorID = UUID().uuidString.lowercased()
        var revision: Int64 = 1
        let mirror = try timeCalls(counts.roundTrips / 4) {
            revision += 1
            _ = try environment.agentCall(SleepTimers1.Mirror.self, environment.mirrorArgument(
                id: mirrorID, token: "dflnat_bench_mirror_0123456789", startedAt: now - 60_000,
                expiresAt: now + 3_600_000, revision: revision))
        }
        record(mirror, median: .mirrorMedian, p99: .mirrorP99, rate: .mirrorRate)
        agent.stop()
        // Each round starts its agent afresh: the name must be free again.
        _ = try environment.waitForName(BenchEnvironment.agentName, present: false)
    }

    private func record(_ result: (samples: Samples, perSecond: Double), median: Quantity, p99: Quantity? = nil,
                        rate: Quantity) {
        measured.add(median, result.samples.median)
        if let p99 { measured.add(p99, result.samples.p99) }
        measured.add(rate, result.perSecond)
    }
}
