import DFLDBus
import Foundation
import SleepTimersAPI

/// Start-up: from spawning the process to its bus name, and to its answer
/// to the first call sent once the name is there; the C floor and the
/// agent in turns.
extension Benchmark {
    private struct Start {
        let executable: String
        let name: String
        let environment: [String: String]
        /// The first call, sent as soon as the name has an owner.
        let firstCall: () -> Message
    }

    /// Milliseconds from the spawn to the name, and to the first answer.
    private func start(_ start: Start) throws -> (named: Double, answered: Double) {
        environment.drainMessages()
        let before = Clock.monotonicNanoseconds()
        let child = try environment.start(start.executable, environment: start.environment)
        let owned = try environment.waitForName(start.name)
        _ = try environment.connection.callAndWait(start.firstCall())
        let answered = Clock.monotonicNanoseconds()
        child.stop()
        _ = try environment.waitForName(start.name, present: false)
        return (Double(owned - before) / 1e6, Double(answered - before) / 1e6)
    }

    func startup() throws {
        let floorName = "com.dreamsforlittles.Bench.Idle"
        let floor = Start(executable: floors + "/idle-process", name: floorName, environment: [:]) {
            // libdbus answers Peer.Ping itself, once the loop dispatches.
            Message.methodCall(destination: floorName, path: "/", interface: StandardInterface.Peer.name,
                               member: StandardInterface.Peer.ping)
        }
        let agent = Start(executable: environment.binaries + "/dfl-sleep-agent", name: BenchEnvironment.agentName,
                          environment: try environment.agentEnvironment("start")) {
            BenchEnvironment.agentMessage(SleepTimers1.List.self)
        }
        // Unmeasured: the agent's first start ever makes its store.
        _ = try self.start(floor)
        _ = try self.start(agent)
        var floorTimes: [(named: Double, answered: Double)] = []
        var agentTimes: [(named: Double, answered: Double)] = []
        for _ in 0..<counts.startups {
            floorTimes.append(try self.start(floor))
            agentTimes.append(try self.start(agent))
        }
        measured.add(.startFloor, Samples(floorTimes.map(\.named)).median)
        measured.add(.startAgent, Samples(agentTimes.map(\.named)).median)
        measured.add(.firstAnswerFloor, Samples(floorTimes.map(\.answered)).median)
        measured.add(.firstAnswerAgent, Samples(agentTimes.map(\.answered)).median)
    }
}
