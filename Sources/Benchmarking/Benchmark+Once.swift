import DFLDBus
import DFLTestSupport
import Foundation
import Glibc
import SleepTimerCore
import SleepTimersAPI
import SleepTimerStore

/// What needs no floor, measured once: memory after many changes, and how
/// costs grow with the number of timers held.
extension Benchmark {
    /// Mirrors and removes a timer `counts.cycles` times. The first cycles
    /// page in code and grow caches once (file-backed pages of the
    /// libraries, SQLite's page cache): growth after them is what a leak
    /// would show.
    func cycles() throws {
        let agent = try environment.startAgent(try environment.agentEnvironment("cycles"))
        _ = try environment.waitForName(BenchEnvironment.agentName)
        usleep(1_000_000)
        measured.add(.residentBeforeCycles, Double(try ProcessStatus(pid: agent.pid).residentKiB))
        let warmUpCycles = max(1, counts.cycles / 100)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        for index in 0..<counts.cycles {
            if index == warmUpCycles {
                usleep(200_000)
                measured.add(.residentAfterWarmUp, Double(try ProcessStatus(pid: agent.pid).residentKiB))
            }
            let id = UUID().uuidString.lowercased()
            _ = try environment.agentCall(SleepTimers1.Mirror.self, environment.mirrorArgument(
                id: id, token: "dflnat_bench_cycle_\(index)_0123456789", startedAt: now - 60_000,
                expiresAt: now + 3_600_000, revision: 1))
            _ = try environment.agentCall(SleepTimers1.Remove.self, .string(id))
        }
        usleep(1_000_000)
        let after = try ProcessStatus(pid: agent.pid)
        measured.add(.residentAfterCycles, Double(after.residentKiB))
        measured.add(.anonymousAfterCycles, Double(after.anonymousKiB))
        agent.stop()
        _ = try environment.waitForName(BenchEnvironment.agentName, present: false)
    }

    /// A store holding `count` mirrored timers, sixteen to a family as
    /// Mirror allows (and, with `completions`, as many pending completions
    /// due now).
    private func populatedAgent(_ name: String, timers count: Int, completions: Bool = false, origin: String? = nil) throws
        -> [String: String]
    {
        let agentEnvironment = try environment.agentEnvironment(name, origin: origin)
        let store = try SleepTimerStore(location: StoreLocation(directory: environment.agentStateDirectory(agentEnvironment)),
                                        log: SilentLog())
        let now = SystemClock().now()
        let apiOrigin = try APIOrigin(parsing: origin ?? environment.apiOrigin)
        for index in 0..<count {
            let scope = TimerScope(apiOrigin: apiOrigin, userID: UserID(environment.parent.id)!,
                                   familySubjectID: FamilySubjectID(String(format: "a1e4c7d2-3f6b-4a9e-8d1c-%012x", index / 16))!)
            let timer = MirroredTimer(
                id: TimerID(UUID().uuidString)!, scope: scope, babyID: BabyID(BenchEnvironment.maya)!,
                babyName: try BabyName(validating: "Baby \(index)"), startedAt: now.adding(milliseconds: -600_000),
                timeZone: TimeZoneName("Europe/Berlin")!, revision: 1,
                token: ActionToken(unvalidated: "dflnat_bench_scale_\(index)_0123456789"),
                tokenExpiresAt: now.adding(milliseconds: 3_600_000))
            _ = try store.upsert(timer)
            if completions { _ = try store.recordCompletion(of: timer.id, completedAt: now, now: now) }
        }
        return agentEnvironment
    }

    func scale() throws {
        // Without a notification server: the figures are the agent's, not
        // a server's showing up to 64 notifications.
        recorder?.stop()
        _ = try environment.waitForName(ExternalInterface.Notifications.name, present: false)
        var listPoints: [(n: Double, cost: Double)] = []
        var startPoints: [(n: Double, cost: Double)] = []
        var sweepPoints: [(n: Double, cost: Double)] = []
        for size in counts.scaleSizes {
            let listEnvironment = try populatedAgent("scale-\(size)", timers: size)
            startPoints.append((Double(size), try startTimes(listEnvironment).median))
            let agent = try environment.startAgent(listEnvironment)
            _ = try environment.waitForName(BenchEnvironment.agentName)
            let list = try timeCalls(200) {
                _ = try environment.connection.callAndWait(BenchEnvironment.agentMessage(SleepTimers1.List.self))
            }
            listPoints.append((Double(size), list.samples.median))
            agent.stop()
            _ = try environment.waitForName(BenchEnvironment.agentName, present: false)
            sweepPoints.append((Double(size), try sweep(size)))
        }
        scalePoints = ["List": listPoints, "Start to the first List answered": startPoints, "Full outbox sweep": sweepPoints]
        for (name, points) in scalePoints { measured.add(.scaleExponent(name), fittedExponent(points)) }
    }

    /// Milliseconds from spawn to the first List answered, a few times.
    private func startTimes(_ agentEnvironment: [String: String]) throws -> Samples {
        var values: [Double] = []
        for _ in 0..<max(3, counts.startups / 2) {
            environment.drainMessages()
            let before = Clock.monotonicNanoseconds()
            let child = try environment.start(environment.binaries + "/dfl-sleep-agent", environment: agentEnvironment)
            _ = try environment.waitForName(BenchEnvironment.agentName)
            _ = try environment.connection.callAndWait(BenchEnvironment.agentMessage(SleepTimers1.List.self))
            values.append(Double(Clock.monotonicNanoseconds() - before) / 1e6)
            child.stop()
            _ = try environment.waitForName(BenchEnvironment.agentName, present: false)
        }
        return Samples(values)
    }

    /// Milliseconds until the agent has tried every pending completion once.
    /// Completions go to a loopback port nothing listens on: each attempt
    /// fails at once, so the sweep measures the agent, not the platform.
    private func sweep(_ size: Int) throws -> Double {
        let sweepEnvironment = try populatedAgent("sweep-\(size)", timers: size, completions: true, origin: "http://127.0.0.1:9")
        let before = Clock.monotonicNanoseconds()
        let sweeper = try environment.start(environment.binaries + "/dfl-sleep-agent", environment: sweepEnvironment,
                                            captureOutput: false, errorLog: environment.root + "/sweep-\(size).log")
        let deadline = Date().addingTimeInterval(600)
        // Only what the agent wrote since the last look is read, so that
        // watching costs the same at every size.
        let progress = LogCounter(path: environment.root + "/sweep-\(size).log", phrase: "will be tried again")
        while progress.count < size && Date() < deadline {
            usleep(5_000)
            progress.readNew()
        }
        let elapsed = Double(Clock.monotonicNanoseconds() - before) / 1e6
        sweeper.stop()
        _ = try environment.waitForName(BenchEnvironment.agentName, present: false)
        return elapsed
    }
}
