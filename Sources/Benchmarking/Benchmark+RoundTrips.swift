import DFLDBus
import Foundation
import SleepTimersAPI

/// Round trips: the bus's own Peer.Ping, the C libdbus Echo service (the
/// floor), the same Echo driven by a GLib loop as the agent's connection is
/// (the loop's share), then the agent's List and Mirror.
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

        // The two floors and the agent run side by side and take turns in
        // short blocks, so that a busy moment of the machine falls on all
        // three rather than on one.
        let echoService = try environment.start(floors + "/echo-service")
        let loopService = try environment.start(floors + "/echo-loop")
        _ = try environment.waitForName("com.dreamsforlittles.Bench.Echo")
        _ = try environment.waitForName("com.dreamsforlittles.Bench.EchoLoop")
        let agent = try environment.startAgent(try environment.agentEnvironment("round-trips-\(round)"))
        _ = try environment.waitForName(BenchEnvironment.agentName)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        try mirrorThreeTimers(now: now, tokens: "list")
        func echo(_ destination: String) -> () throws -> Void {
            {
                _ = try connection.callAndWait(Message.methodCall(
                    destination: destination, path: "/com/dreamsforlittles/Bench/Echo",
                    interface: "com.dreamsforlittles.Bench.Echo", member: "Echo").append(.string("hello")))
            }
        }
        // The reply is not decoded, as the Echo's is not: the same client work.
        let list: () throws -> Void = {
            _ = try connection.callAndWait(BenchEnvironment.agentMessage(SleepTimers1.List.self))
        }
        let results = try inTurns([echo("com.dreamsforlittles.Bench.Echo"), echo("com.dreamsforlittles.Bench.EchoLoop"), list])
        record(results[0], median: .echoMedian, p99: .echoP99, rate: .echoRate)
        record(results[1], median: .loopEchoMedian, p99: .loopEchoP99, rate: .loopEchoRate)
        record(results[2], median: .listMedian, p99: .listP99, rate: .listRate)
        echoService.stop()
        loopService.stop()

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
        try dispatchTimes(echo: echo("com.dreamsforlittles.Bench.EchoLoop"), list: list, now: now)
    }

    /// Inside each process, from reading a call to its reply written: the
    /// GLib-loop Echo and a second agent, both with `floors/step-trace.so`
    /// preloaded. The rest of a round trip lies outside the process: the bus
    /// daemon and the caller carrying the messages.
    private func dispatchTimes(echo: @escaping () throws -> Void, list: @escaping () throws -> Void, now: Int64) throws {
        let echoTrace = environment.root + "/echo-loop-\(round).trace"
        let agentTrace = environment.root + "/list-\(round).trace"
        _ = try environment.waitForName("com.dreamsforlittles.Bench.EchoLoop", present: false)
        let loopService = try environment.start(floors + "/echo-loop", environment: stepTrace(to: echoTrace))
        _ = try environment.waitForName("com.dreamsforlittles.Bench.EchoLoop")
        let agent = try environment.startAgent(
            try environment.agentEnvironment("list-traced-\(round)").merging(stepTrace(to: agentTrace)) { $1 })
        _ = try environment.waitForName(BenchEnvironment.agentName)
        try mirrorThreeTimers(now: now, tokens: "traced")
        let start = Clock.wallNanoseconds()
        let results = try inTurns([echo, list])
        let end = Clock.wallNanoseconds()
        loopService.stop()
        agent.stop()
        _ = try environment.waitForName(BenchEnvironment.agentName, present: false)
        for (path, pid, quantity) in [(echoTrace, loopService.pid, Quantity.loopEchoDispatch),
                                      (agentTrace, agent.pid, Quantity.listDispatch)] {
            let answered = try StepTrace(path: path).callsAnswered(between: start, end, thread: pid)
            guard answered.count >= results[0].samples.count / 2 else {
                throw BenchmarkError("the step trace of \(path) holds \(answered.count) answered calls")
            }
            measured.add(quantity, Samples(answered).median)
        }
    }

    /// The three running timers List answers with.
    private func mirrorThreeTimers(now: Int64, tokens: String) throws {
        for index in 0..<3 {
            _ = try environment.agentCall(SleepTimers1.Mirror.self, environment.mirrorArgument(
                id: UUID().uuidString.lowercased(), token: "dflnat_bench_\(tokens)_\(index)_0123456789",
                startedAt: now - 60_000, expiresAt: now + 3_600_000, revision: 1))
        }
    }

    /// `counts.roundTrips` calls of each, in ten blocks taken in turns: the
    /// samples of all blocks, and the calls per second over them.
    private func inTurns(_ calls: [() throws -> Void]) throws -> [(samples: Samples, perSecond: Double)] {
        let blocks = 10
        var samples = [[Double]](repeating: [], count: calls.count)
        var seconds = [Double](repeating: 0, count: calls.count)
        for _ in 0..<blocks {
            for (index, call) in calls.enumerated() {
                let block = try timeCalls(max(1, counts.roundTrips / blocks), call)
                samples[index] += block.samples.values
                seconds[index] += Double(block.samples.count) / block.perSecond
            }
        }
        return zip(samples, seconds).map { (Samples($0), Double($0.count) / $1) }
    }

    private func record(_ result: (samples: Samples, perSecond: Double), median: Quantity, p99: Quantity? = nil,
                        rate: Quantity) {
        measured.add(median, result.samples.median)
        if let p99 { measured.add(p99, result.samples.p99) }
        measured.add(rate, result.perSecond)
    }
}
