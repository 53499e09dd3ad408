import DFLDBus
import DFLTestSupport
import Foundation
import SleepTimerStore
import SleepTimersAPI

/// Start-up: from spawning the process to its bus name, and to its answer
/// to the first call sent once the name is there; the C floor and the
/// agent in turns. Where the milliseconds go: each program's --version
/// (loading the process, its libraries and, for the agent, the Swift
/// runtime, and nothing else), and the store's open timed alone.
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
        var floorLoads: [Double] = []
        var agentLoads: [Double] = []
        let agentVersionEnvironment = environment.environment.merging(agent.environment) { $1 }
        for _ in 0..<counts.startups {
            floorTimes.append(try self.start(floor))
            agentTimes.append(try self.start(agent))
            floorLoads.append(try timeToExit(floor.executable, ["--version"], environment: environment.environment))
            agentLoads.append(try timeToExit(agent.executable, ["--version"], environment: agentVersionEnvironment))
        }
        measured.add(.loadFloor, Samples(floorLoads).median)
        measured.add(.loadAgent, Samples(agentLoads).median)
        measured.add(.storeOpen, try storeOpenTime(agent.environment))
        measured.add(.startFloor, Samples(floorTimes.map(\.named)).median)
        measured.add(.startAgent, Samples(agentTimes.map(\.named)).median)
        measured.add(.firstAnswerFloor, Samples(floorTimes.map(\.answered)).median)
        measured.add(.firstAnswerAgent, Samples(agentTimes.map(\.answered)).median)
    }

    /// Milliseconds to open the agent's store as the agent does (schema
    /// check, WAL, quick_check) and close it, in this process, a few times.
    private func storeOpenTime(_ agentEnvironment: [String: String]) throws -> Double {
        let location = StoreLocation(directory: environment.agentStateDirectory(agentEnvironment))
        var times: [Double] = []
        for _ in 0..<max(3, counts.startups) {
            let before = Clock.monotonicNanoseconds()
            let store = try SleepTimerStore(location: location, log: SilentLog())
            store.close()
            times.append(Double(Clock.monotonicNanoseconds() - before) / 1e6)
        }
        return Samples(times).median
    }
}
