import Foundation
import Glibc
import SleepTimersAPI

/// From a call to what it causes outside the agent: Mirror to the
/// notification server's Notify, and Complete to the POST at the platform,
/// each beside the floors of the same round (a SQLite commit, a libnotify
/// show, a libcurl POST).
extension Benchmark {
    private func notifyTimes(since count: Int) -> [Int64] {
        Recorder.read(recorderLog).dropFirst(count).map(\.received)
    }

    func mirrorToNotify() throws {
        let commits = try environment.start(floors + "/sqlite-commit", [environment.root + "/floor.sqlite3",
                                                                       String(counts.mirrorsToNotify)], captureOutput: true)
        commits.waitForExit()
        let commit = Samples(commits.waitForLines(counts.mirrorsToNotify).compactMap { Double($0) }.map { $0 / 1000 })
        measured.add(.commitMedian, commit.median)
        measured.add(.showMedian, try notifyFloor("new").median)
        measured.add(.updateMedian, try notifyFloor("update").median)

        let agent = try environment.startAgent(try environment.agentEnvironment("notify-\(round)"))
        _ = try environment.waitForName(BenchEnvironment.agentName)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        var values: [Double] = []
        for index in 0..<counts.mirrorsToNotify {
            let before = Recorder.read(recorderLog).count
            let sent = Clock.wallNanoseconds()
            _ = try environment.agentCall(SleepTimers1.Mirror.self, environment.mirrorArgument(
                id: UUID().uuidString.lowercased(), token: "dflnat_bench_notify_\(index)_0123456789",
                startedAt: now - 60_000, expiresAt: now + 3_600_000, revision: 1))
            if let received = notifyTimes(since: before).first { values.append(Double(received - sent) / 1000) }
            _ = try environment.agentCall(SleepTimers1.Purge.self, .string(environment.apiOrigin), .string(environment.parent.id), .string(""))
        }
        agent.stop()
        _ = try environment.waitForName(BenchEnvironment.agentName, present: false)
        measured.add(.mirrorToNotifyMedian, Samples(values).median)
    }

    /// libnotify showing a new notification (or updating one in place), from
    /// just before the call to the server receiving it.
    private func notifyFloor(_ mode: String) throws -> Samples {
        let before = Recorder.read(recorderLog).count
        let program = try environment.start(floors + "/notify-show", [String(counts.mirrorsToNotify), mode], captureOutput: true)
        program.waitForExit()
        let sent = program.waitForLines(counts.mirrorsToNotify).compactMap { Int64($0) }
        return Samples(zip(sent, notifyTimes(since: before)).map { Double($1 - $0) / 1000 })
    }

    private func curlFloor(_ mode: String) throws -> Samples {
        let floorID = UUID().uuidString.lowercased()
        let path = "/native/sleep-timers/\(floorID)/complete"
        let program = try environment.start(floors + "/curl-post", [environment.apiOrigin + path, environment.caFile,
                                                                    String(counts.completions), mode], captureOutput: true)
        program.waitForExit()
        let sent = program.waitForLines(counts.completions).compactMap { Int64($0) }
        let arrivals = try environment.platformArrivals().filter { $0.path == path }.map(\.arrival)
        return Samples(zip(sent, arrivals.suffix(sent.count)).map { Double($1 - $0) / 1000 })
    }

    func completeToPost() throws {
        measured.add(.reusedPostMedian, try curlFloor("reuse").median)
        measured.add(.newPostMedian, try curlFloor("new").median)
        let (_, times) = try completions(try environment.agentEnvironment("complete-\(round)"))
        measured.add(.completeToPostMedian, Samples(times.map { Double($0.arrival - $0.sent) / 1000 }).median)
        try completeSteps()
    }

    /// Completes `counts.completions` timers (after one that opens the
    /// connection, unmeasured), one at a time: for each, when the call was
    /// sent and when its POST arrived (wall clock, ns). Returns the agent's
    /// pid too, for a trace of its threads.
    private func completions(_ agentEnvironment: [String: String]) throws -> (pid: Int32, [(sent: Int64, arrival: Int64)]) {
        let agent = try environment.startAgent(agentEnvironment)
        _ = try environment.waitForName(BenchEnvironment.agentName)
        var sentAt: [String: Int64] = [:]
        for index in 0...counts.completions {
            let timer = try environment.platformSleepTimer()
            _ = try environment.agentCall(SleepTimers1.Mirror.self, environment.mirrorArgument(
                id: timer.id, token: timer.token, startedAt: timer.startedAt, expiresAt: timer.expiresAt, revision: 1))
            let sent = Clock.wallNanoseconds()
            _ = try environment.agentCall(SleepTimers1.Complete.self, .string(timer.id), .int64(0))
            if index > 0 { sentAt[timer.id] = sent }  // the first opens the connection: a warm-up
            let deadline = Date().addingTimeInterval(30)
            while (try environment.agentCall(SleepTimers1.List.self).first?.arrayElements?.count ?? 0) > 0 && Date() < deadline {
                usleep(1000)
            }
        }
        let pid = agent.pid
        agent.stop()
        _ = try environment.waitForName(BenchEnvironment.agentName, present: false)
        var times: [(sent: Int64, arrival: Int64)] = []
        for (path, arrival) in try environment.platformArrivals() {
            let parts = path.split(separator: "/")
            if parts.count == 4, let sent = sentAt[String(parts[2])] { times.append((sent, arrival)) }
        }
        return (pid, times)
    }

    /// The same completions by an agent with `floors/step-trace.so`
    /// preloaded, split into steps at the moments the agent read the call,
    /// synced its commit, signalled the change and wrote the POST.
    private func completeSteps() throws {
        let tracePath = environment.root + "/complete-steps-\(round).trace"
        let (pid, times) = try completions(
            try environment.agentEnvironment("complete-traced-\(round)").merging(stepTrace(to: tracePath)) { $1 })
        let trace = try StepTrace(path: tracePath)
        var steps: [Quantity: [Double]] = [:]
        for (sent, arrival) in times {
            // The POST's write may return after the platform read it.
            let window = trace.between(sent, arrival + 50_000_000)
            guard let split = CompletionSteps(window, mainThread: pid, sent: sent, arrival: arrival)
            else { continue }
            for (quantity, value) in split.values { steps[quantity, default: []].append(value) }
        }
        guard !steps.isEmpty else {
            throw BenchmarkError("the step trace of the completions holds no complete path (\(trace.steps.count) steps)")
        }
        for (quantity, values) in steps { measured.add(quantity, Samples(values).median) }
    }
}

/// One completion split at what the agent did: read the call, synced the
/// commit, wrote the TimerChanged signal (its first write to the bus) and
/// wrote the POST; the reply follows the POST. Microseconds, or nil when
/// the trace misses a moment.
struct CompletionSteps {
    let values: [(Quantity, Double)]

    init?(_ window: [StepTrace.Step], mainThread: Int32, sent: Int64, arrival: Int64) {
        let main = window.filter { $0.thread == mainThread }
        guard let read = main.first(where: { $0.kind == .socketRead && $0.place == .localSocket }),
            let signal = main.first(where: { $0.kind == .socketWrite && $0.place == .localSocket && $0.wall > read.wall }),
            let sync = main.last(where: { $0.kind == .fileSync && $0.wall > read.wall && $0.wall < signal.wall }),
            let post = window.first(where: { $0.kind == .socketWrite && $0.place == .networkSocket && $0.wall > signal.wall })
        else { return nil }
        func micro(_ nanoseconds: Int64) -> Double { Double(nanoseconds) / 1000 }
        // A write returns after the data is on its way: the platform may
        // read it before the call returns, so the POST's step ends at the
        // write's start.
        let postStart = post.wall - post.duration
        values = [
            (.completeTracedTotal, micro(arrival - sent)),
            (.completeStepRead, micro(read.wall - sent)),
            (.completeStepCommit, micro(sync.wall - read.wall)),
            (.completeStepSync, micro(sync.duration)),
            (.completeStepSignal, micro(signal.wall - sync.wall)),
            (.completeStepPost, micro(postStart - signal.wall)),
            (.completeStepArrival, micro(arrival - postStart)),
        ]
    }
}
