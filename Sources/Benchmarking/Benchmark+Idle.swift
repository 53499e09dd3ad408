import Foundation
import Glibc
import SleepTimersAPI

/// Memory after start and wake-ups, in two windows per round: with nothing
/// to do (the agent beside the C idle process), then with three running
/// timers (the agent beside a C program updating three libnotify
/// notifications), each pair measured over the same seconds.
extension Benchmark {
    func idle() throws {
        let floorProcess = try environment.start(floors + "/idle-process", ["com.dreamsforlittles.Bench.Idle"])
        _ = try environment.waitForName("com.dreamsforlittles.Bench.Idle")
        let agent = try environment.startAgent(try environment.agentEnvironment("idle-\(round)", liveElapsed: "on"))
        _ = try environment.waitForName(BenchEnvironment.agentName)
        usleep(1_000_000)
        try recordMemory(agent: agent.pid, floor: floorProcess.pid)

        let quiet = try switches(over: [agent.pid, floorProcess.pid])
        measured.add(.idleSwitchesAgent, Double(quiet[0].voluntarySwitches))
        measured.add(.idleSwitchesFloor, Double(quiet[1].voluntarySwitches))
        floorProcess.stop()

        try boundaryWindow(agent: agent)
        agent.stop()
        _ = try environment.waitForName(BenchEnvironment.agentName, present: false)
    }

    private func recordMemory(agent: Int32, floor: Int32) throws {
        let agentStatus = try ProcessStatus(pid: agent)
        let floorStatus = try ProcessStatus(pid: floor)
        measured.add(.residentAgent, Double(agentStatus.residentKiB))
        measured.add(.residentFloor, Double(floorStatus.residentKiB))
        measured.add(.anonymousAgent, Double(agentStatus.anonymousKiB))
        measured.add(.anonymousFloor, Double(floorStatus.anonymousKiB))
        let agentMap = MemoryMap(pid: agent)
        let floorMap = MemoryMap(pid: floor)
        measured.add(.executableAgent, agentMap.map { Double($0.executableKiB) } ?? .nan)
        measured.add(.executableFloor, floorMap.map { Double($0.executableKiB) } ?? .nan)
        measured.add(.librariesAgent, agentMap.map { Double($0.librariesKiB) } ?? .nan)
        measured.add(.librariesFloor, floorMap.map { Double($0.librariesKiB) } ?? .nan)
        if let agentMap, let floorMap {
            let own = agentMap.libraries.filter { floorMap.libraries[$0.key] == nil }
            measured.add(.librariesOnlyAgent, Double(own.values.reduce(0, +)))
            agentOnlyLibraries = own
            agentLibraries = agentMap.libraries
        } else {
            measured.add(.librariesOnlyAgent, .nan)
        }
    }

    /// The switches of each process over `counts.idleSeconds`.
    private func switches(over pids: [Int32]) throws -> [(voluntarySwitches: Int, main: Int, threads: [String: Int])] {
        let before = try pids.map { try ProcessStatus(pid: $0) }
        sleep(counts.idleSeconds)
        let after = try pids.map { try ProcessStatus(pid: $0) }
        return zip(before, after).map { before, after in
            (after.voluntarySwitches - before.voluntarySwitches, after.mainThreadSwitches - before.mainThreadSwitches,
             after.threadSwitches.merging(before.threadSwitches.mapValues { -$0 }, uniquingKeysWith: +))
        }
    }

    /// Three timers started in the same second, so that their minute turns
    /// together, half a window from now; the floor's three notifications
    /// turn at the same moment.
    private func boundaryWindow(agent: Child) throws {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let startedAt = now + Int64(counts.idleSeconds) * 500 + 1500 - 11 * 60_000
        let shownBefore = Recorder.read(recorderLog).count
        let floorProcess = try environment.start(floors + "/notify-boundary", [String(startedAt)])
        for index in 0..<3 {
            _ = try environment.agentCall(SleepTimers1.Mirror.self, environment.mirrorArgument(
                id: UUID().uuidString.lowercased(), token: "dflnat_bench_live_\(index)_0123456789",
                startedAt: startedAt, expiresAt: now + 3_600_000, revision: 1))
        }
        let deadline = Date().addingTimeInterval(30)
        while Recorder.read(recorderLog).count < shownBefore + 6 && Date() < deadline { usleep(20_000) }
        usleep(500_000)
        let counted = try switches(over: [agent.pid, floorProcess.pid])
        floorProcess.stop()
        measured.add(.boundarySwitchesAgent, Double(counted[0].voluntarySwitches))
        measured.add(.boundaryLoopSwitchesAgent, Double(counted[0].main))
        measured.add(.boundaryNotifyThreadSwitchesAgent, Double(counted[0].threads[NotificationThreadName.name] ?? 0))
        measured.add(.boundarySwitchesFloor, Double(counted[1].voluntarySwitches))
        _ = try environment.agentCall(SleepTimers1.Purge.self, .string(environment.apiOrigin), .string(environment.parent.id), .string(""))
    }
}

/// The name the agent gives its libnotify thread (NotificationThread.name
/// in Notifications, which the benchmark does not link), to tell its
/// switches from GDBus's.
enum NotificationThreadName {
    static let name = "notifications"
}
