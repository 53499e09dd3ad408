import DFLDBus
import DFLTestSupport
import Foundation
import SleepTimerCore
import SleepTimersAPI
import SleepTimerStore

/// One line of the report: a figure of the agent beside its floor, measured
/// in the same run.
struct Row {
    let figure: String
    let unit: String
    let samples: Samples
    let floorName: String
    let floor: Double?
    let goal: String
    /// nil when the goal is not a comparison this run can decide.
    let met: Bool?

    var ratio: Double? { floor.flatMap { $0 > 0 ? samples.median / $0 : nil } }
}

/// The benchmark run: starts the environment, measures every figure and
/// its floor, and returns the rows of the report.
final class Benchmark {
    struct Counts {
        var roundTrips = 2000
        var mirrorsToNotify = 300
        var completions = 100
        var startups = 15
        var cycles = 10_000
        var idleSeconds: UInt32 = 60
        var scaleSizes = [10, 100, 1000, 10_000]
        /// Rounds of the desktop app beside MiniBrowser, after one unmeasured round.
        var appRounds = 5
        var appWarmUp = true

        static let quick = Counts(roundTrips: 50, mirrorsToNotify: 10, completions: 5, startups: 3, cycles: 100,
                                  idleSeconds: 2, scaleSizes: [10, 100], appRounds: 1, appWarmUp: false)
    }

    let environment: BenchEnvironment
    let counts: Counts
    private var floors = ""
    private(set) var rows: [Row] = []
    private(set) var notes: [String] = []
    private var recorderLog = ""
    private var recorder: Child?

    init(environment: BenchEnvironment, counts: Counts) {
        self.environment = environment
        self.counts = counts
    }

    private func log(_ text: String) {
        FileHandle.standardError.write(Data("dfl-bench: \(text)\n".utf8))
    }

    /// Only the desktop app's cost (dfl-bench --only app).
    func runAppOnly() throws {
        try environment.startBus()
        try environment.startPlatform()
        log("the desktop app beside MiniBrowser")
        try desktopApp()
    }

    func run() throws {
        log("building the C floors")
        floors = try environment.buildFloors()
        log("starting the private bus and the reference platform")
        try environment.startBus()
        try environment.startPlatform()
        recorderLog = environment.root + "/notifications.log"
        recorder = try environment.start(CommandLine.arguments[0], ["notification-server", recorderLog])
        _ = try environment.waitForName("org.freedesktop.Notifications")

        log("round trips")
        try roundTrips()
        log("Mirror to Notify")
        try mirrorToNotify()
        log("Complete to POST")
        try completeToPost()
        log("start-up")
        try startup()
        log("memory and wake-ups")
        try idle()
        log("scale")
        try scale()
        log("the desktop app beside MiniBrowser")
        try desktopApp()
    }

    // MARK: 7. The desktop app

    private func desktopApp() throws {
        let cost = try AppCost(environment: environment)
        if counts.appWarmUp { _ = try cost.measureRound() }  // caches, fonts, the platform's first handshakes
        var app: [PageLoadCost] = []
        var browser: [PageLoadCost] = []
        for _ in 0..<counts.appRounds {
            let round = try cost.measureRound()
            app.append(round.app)
            browser.append(round.miniBrowser)
        }
        let browserTime = Samples(browser.map(\.startToLoadedMilliseconds))
        let appTime = Samples(app.map(\.startToLoadedMilliseconds))
        rows.append(Row(figure: "Desktop app: start to the page's load event", unit: "ms", samples: appTime,
                        floorName: "MiniBrowser, same page", floor: browserTime.median, goal: "≤ 1.2 × MiniBrowser",
                        met: appTime.median <= 1.2 * browserTime.median))
        let browserMemory = Samples(browser.map { Double($0.treeKiB) })
        let appMemory = Samples(app.map { Double($0.treeKiB) })
        rows.append(Row(figure: "Desktop app: memory of its process tree (PSS)", unit: "KiB", samples: appMemory,
                        floorName: "MiniBrowser's tree", floor: browserMemory.median, goal: "≤ 1.2 × MiniBrowser",
                        met: appMemory.median <= 1.2 * browserMemory.median))
        notes.append("The desktop app and MiniBrowser (WebKitGTK's own, libwebkitgtk-6.0-4) start in turns under one Xvfb and load the demo web app's start page from the reference platform over TLS; the time runs from the start to the page's load event reaching the platform, the memory is the proportional set size of the whole process tree \(AppCost.settleMicroseconds / 1_000_000) s later (the app's includes dfl-webview-bridge). MiniBrowser ignores the test CA's certificate (--ignore-tls-errors); the app verifies it against the configured ca-file after its first attempt fails, and loads again.")
    }

    // MARK: 1. Round trips

    private func timeCalls(_ count: Int, _ call: () throws -> Void) rethrows -> (samples: Samples, perSecond: Double) {
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

    private func roundTrips() throws {
        let connection = environment.connection!
        let ping = try timeCalls(counts.roundTrips) {
            _ = try connection.callAndWait(Message.methodCall(
                destination: StandardInterface.Bus.name, path: StandardInterface.Bus.path,
                interface: StandardInterface.Peer.name, member: StandardInterface.Peer.ping))
        }
        let echoService = try environment.start(floors + "/echo-service")
        _ = try environment.waitForName("com.dreamsforlittles.Bench.Echo")
        let echo = try timeCalls(counts.roundTrips) {
            _ = try connection.callAndWait(Message.methodCall(
                destination: "com.dreamsforlittles.Bench.Echo", path: "/com/dreamsforlittles/Bench/Echo",
                interface: "com.dreamsforlittles.Bench.Echo", member: "Echo").append(.string("hello")))
        }
        echoService.stop()

        let agentEnvironment = try environment.agentEnvironment("round-trips")
        let agent = try environment.startAgent(agentEnvironment)
        _ = try environment.waitForName(BenchEnvironment.agentName)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        for index in 0..<3 {
            _ = try environment.agentCall(SleepTimers1.Mirror.self, environment.mirrorArgument(
                id: UUID().uuidString.lowercased(), token: "dflnat_bench_list_\(index)_0123456789",
                startedAt: now - 60_000, expiresAt: now + 3_600_000, revision: 1))
        }
        // The reply is not decoded, as the Echo's is not: the same client work.
        let listCall = { BenchEnvironment.agentMessage(SleepTimers1.List.self) }
        let list = try timeCalls(counts.roundTrips) { _ = try connection.callAndWait(listCall()) }
        let mirrorID = UUID().uuidString.lowercased()
        var revision: Int64 = 1
        let mirror = try timeCalls(counts.roundTrips / 4) {
            revision += 1
            _ = try environment.agentCall(SleepTimers1.Mirror.self, environment.mirrorArgument(
                id: mirrorID, token: "dflnat_bench_mirror_0123456789", startedAt: now - 60_000,
                expiresAt: now + 3_600_000, revision: revision))
        }
        agent.stop()

        rows.append(Row(figure: "Peer.Ping to the bus daemon", unit: "µs", samples: ping.samples, floorName: "—", floor: nil,
                        goal: "the bus's own floor", met: nil))
        rows.append(Row(figure: "C libdbus Echo(s) service", unit: "µs", samples: echo.samples, floorName: "Peer.Ping",
                        floor: ping.samples.median, goal: "the floor for a service", met: nil))
        rows.append(Row(figure: "List (3 timers), p50", unit: "µs", samples: list.samples, floorName: "C Echo",
                        floor: echo.samples.median, goal: "≤ 1.15 × C Echo",
                        met: list.samples.median <= 1.15 * echo.samples.median))
        rows.append(Row(figure: "List (3 timers), p99", unit: "µs", samples: Samples([list.samples.p99]), floorName: "C Echo p99",
                        floor: echo.samples.p99, goal: "reported", met: nil))
        rows.append(Row(figure: "List throughput", unit: "calls/s", samples: Samples([list.perSecond]), floorName: "C Echo",
                        floor: echo.perSecond, goal: "≥ 90 % of C Echo", met: list.perSecond >= 0.9 * echo.perSecond))
        rows.append(Row(figure: "Peer.Ping throughput", unit: "calls/s", samples: Samples([ping.perSecond]), floorName: "—",
                        floor: nil, goal: "reported", met: nil))
        rows.append(Row(figure: "Mirror (durable write, notification update), p50", unit: "µs", samples: mirror.samples,
                        floorName: "C Echo", floor: echo.samples.median, goal: "reported (p99 \(Int(mirror.samples.p99)) µs)",
                        met: nil))
        rows.append(Row(figure: "Mirror throughput", unit: "calls/s", samples: Samples([mirror.perSecond]), floorName: "C Echo",
                        floor: echo.perSecond, goal: "reported", met: nil))
    }

    // MARK: 2. Mirror → Notify

    private func notifyTimes(since count: Int) -> [Int64] {
        Recorder.read(recorderLog).dropFirst(count).map(\.received)
    }

    private func mirrorToNotify() throws {
        let agentEnvironment = try environment.agentEnvironment("notify")
        let agent = try environment.startAgent(agentEnvironment)
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

        var floorValues: [Double] = []
        var updateValues: [Double] = []
        for (mode, sink) in [("new", 0), ("update", 1)] {
            let before = Recorder.read(recorderLog).count
            let program = try environment.start(floors + "/notify-show", [String(counts.mirrorsToNotify), mode], captureOutput: true)
            program.waitForExit()
            let sent = program.waitForLines(counts.mirrorsToNotify).compactMap { Int64($0) }
            let received = notifyTimes(since: before)
            let pairs = zip(sent, received).map { Double($1 - $0) / 1000 }
            if sink == 0 { floorValues = pairs } else { updateValues = pairs }
        }
        let floor = Samples(floorValues)
        rows.append(Row(figure: "Mirror → Notify received", unit: "µs", samples: Samples(values),
                        floorName: "C libnotify show", floor: floor.median, goal: "p50 ≤ 1500 µs",
                        met: Samples(values).median <= 1500))
        rows.append(Row(figure: "C libnotify update in place → Notify received", unit: "µs", samples: Samples(updateValues),
                        floorName: "—", floor: nil, goal: "the floor for updates", met: nil))
    }

    // MARK: 3. Complete → POST

    private func completeToPost() throws {
        let commits = try environment.start(floors + "/sqlite-commit", [environment.root + "/floor.sqlite3",
                                                                       String(counts.completions * 5)], captureOutput: true)
        commits.waitForExit()
        let commit = Samples(commits.waitForLines(counts.completions * 5).compactMap { Double($0) }.map { $0 / 1000 })

        func curlFloor(_ mode: String) throws -> Samples {
            let floorID = UUID().uuidString.lowercased()
            let path = "/native/sleep-timers/\(floorID)/complete"
            let program = try environment.start(floors + "/curl-post", [environment.apiOrigin + path, environment.caFile,
                                                                        String(counts.completions), mode], captureOutput: true)
            program.waitForExit()
            let sent = program.waitForLines(counts.completions).compactMap { Int64($0) }
            let arrivals = try environment.platformArrivals().filter { $0.path == path }.map(\.arrival)
            return Samples(zip(sent, arrivals.suffix(sent.count)).map { Double($1 - $0) / 1000 })
        }
        let reused = try curlFloor("reuse")
        let fresh = try curlFloor("new")

        let agentEnvironment = try environment.agentEnvironment("complete")
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
        agent.stop()
        var values: [Double] = []
        for (path, arrival) in try environment.platformArrivals() {
            let parts = path.split(separator: "/")
            if parts.count == 4, let sent = sentAt[String(parts[2])] { values.append(Double(arrival - sent) / 1000) }
        }
        let samples = Samples(values)
        let goal = commit.median + reused.median + 300
        rows.append(Row(figure: "SQLite WAL insert + commit, synchronous=FULL", unit: "µs", samples: commit, floorName: "—",
                        floor: nil, goal: "floor", met: nil))
        rows.append(Row(figure: "libcurl HTTPS POST on loopback, reused handle → arrival", unit: "µs", samples: reused,
                        floorName: "—", floor: nil, goal: "floor", met: nil))
        rows.append(Row(figure: "libcurl HTTPS POST on loopback, new handle → arrival", unit: "µs", samples: fresh,
                        floorName: "—", floor: nil, goal: "floor", met: nil))
        rows.append(Row(figure: "Complete (D-Bus call) → POST arriving at the platform", unit: "µs", samples: samples,
                        floorName: "commit + reused POST", floor: commit.median + reused.median,
                        goal: "p50 ≤ \(Int(goal)) µs (floor + 300 µs)", met: samples.median <= goal))
    }

    // MARK: 4. Start-up

    /// Time from spawning a process to its owning `name`, over `runs` runs.
    private func startups(_ executable: String, _ arguments: [String] = [], name: String, extra: [String: String] = [:],
                          runs: Int) throws -> Samples {
        var values: [Double] = []
        for _ in 0..<runs {
            environment.drainMessages()
            let before = Clock.monotonicNanoseconds()
            let child = try environment.start(executable, arguments, environment: extra)
            let owned = try environment.waitForName(name)
            values.append(Double(owned - before) / 1e6)
            child.stop()
            _ = try environment.waitForName(name, present: false)
        }
        return Samples(values)
    }

    /// A store holding `count` mirrored timers (and, with `completions`,
    /// as many pending completions due now).
    private func populatedAgent(_ name: String, timers count: Int, completions: Bool = false, origin: String? = nil) throws
        -> [String: String]
    {
        let agentEnvironment = try environment.agentEnvironment(name, origin: origin)
        let store = try SleepTimerStore(location: StoreLocation(directory: environment.agentStateDirectory(agentEnvironment)),
                                        log: SilentLog())
        let now = SystemClock().now()
        let scope = TimerScope(apiOrigin: try APIOrigin(parsing: origin ?? environment.apiOrigin),
                               userID: UserID(environment.parent.id)!, familySubjectID: FamilySubjectID(BenchEnvironment.family)!)
        for index in 0..<count {
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

    private func startup() throws {
        let floor = try startups(floors + "/idle-process", name: "com.dreamsforlittles.Bench.Idle", runs: counts.startups)
        let empty = try startups(environment.binaries + "/dfl-sleep-agent", name: BenchEnvironment.agentName,
                                 extra: try environment.agentEnvironment("start-empty"), runs: counts.startups)
        let thousand = try startups(environment.binaries + "/dfl-sleep-agent", name: BenchEnvironment.agentName,
                                    extra: try populatedAgent("start-1000", timers: 1000), runs: counts.startups)
        rows.append(Row(figure: "Start to bus name, 0 timers", unit: "ms", samples: empty, floorName: "C process, same libraries",
                        floor: floor.median, goal: "≤ 1.3 × floor", met: empty.median <= 1.3 * floor.median))
        rows.append(Row(figure: "Start to bus name, 1,000 stored timers", unit: "ms", samples: thousand,
                        floorName: "C process, same libraries", floor: floor.median, goal: "≤ 25 ms",
                        met: thousand.median <= 25))
    }

    // MARK: 5. Memory and wake-ups

    private func idle() throws {
        let quiet = try quietAgent()
        let live = try liveAgent()
        reportIdle(quiet, live)
    }

    /// The agent with nothing to do beside the floor, then after many
    /// Mirror/Remove cycles.
    private struct Quiet {
        var floor: ProcessStatus
        var started: ProcessStatus
        var floorSwitches: Int
        var idleSwitches: Int
        var warmUpCycles: Int
        var afterWarmUp: ProcessStatus
        var cycled: ProcessStatus
    }

    private func quietAgent() throws -> Quiet {
        let floorProcess = try environment.start(floors + "/idle-process", ["com.dreamsforlittles.Bench.Idle"])
        _ = try environment.waitForName("com.dreamsforlittles.Bench.Idle")
        let agentEnvironment = try environment.agentEnvironment("idle")
        let agent = try environment.startAgent(agentEnvironment)
        _ = try environment.waitForName(BenchEnvironment.agentName)
        usleep(1_000_000)
        let floorStatus = try ProcessStatus(pid: floorProcess.pid)
        let started = try ProcessStatus(pid: agent.pid)

        // Wake-ups with nothing to do, the floor beside the agent.
        let floorBefore = try ProcessStatus(pid: floorProcess.pid).voluntarySwitches
        let agentBefore = try ProcessStatus(pid: agent.pid).voluntarySwitches
        sleep(counts.idleSeconds)
        let floorSwitches = try ProcessStatus(pid: floorProcess.pid).voluntarySwitches - floorBefore
        let idleSwitches = try ProcessStatus(pid: agent.pid).voluntarySwitches - agentBefore

        // The first cycles page in code and grow caches once (file-backed
        // pages of the libraries, SQLite's page cache): growth after them
        // is what a leak would show.
        let warmUpCycles = max(1, counts.cycles / 100)
        let afterWarmUp = try cycle(agent, warmUpCycles: warmUpCycles)
        usleep(1_000_000)
        let cycled = try ProcessStatus(pid: agent.pid)
        agent.stop()
        floorProcess.stop()
        return Quiet(floor: floorStatus, started: started, floorSwitches: floorSwitches, idleSwitches: idleSwitches,
                     warmUpCycles: warmUpCycles, afterWarmUp: afterWarmUp ?? cycled, cycled: cycled)
    }

    /// Mirrors and removes a timer `counts.cycles` times; the agent's
    /// status after the warm-up cycles.
    private func cycle(_ agent: Child, warmUpCycles: Int) throws -> ProcessStatus? {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        var warmed: ProcessStatus?
        for index in 0..<counts.cycles {
            if index == warmUpCycles {
                usleep(200_000)
                warmed = try ProcessStatus(pid: agent.pid)
            }
            let id = UUID().uuidString.lowercased()
            _ = try environment.agentCall(SleepTimers1.Mirror.self, environment.mirrorArgument(
                id: id, token: "dflnat_bench_cycle_\(index)_0123456789", startedAt: now - 60_000,
                expiresAt: now + 3_600_000, revision: 1))
            _ = try environment.agentCall(SleepTimers1.Remove.self, .string(id))
        }
        return warmed
    }

    /// Wake-ups with three timers whose elapsed time is updated live: all
    /// threads, and the main thread alone.
    private func liveAgent() throws -> (switches: Int, mainThreadSwitches: Int) {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let liveEnvironment = try environment.agentEnvironment("live", liveElapsed: "on")
        let live = try environment.startAgent(liveEnvironment)
        _ = try environment.waitForName(BenchEnvironment.agentName)
        for index in 0..<3 {
            _ = try environment.agentCall(SleepTimers1.Mirror.self, environment.mirrorArgument(
                id: UUID().uuidString.lowercased(), token: "dflnat_bench_live_\(index)_0123456789",
                startedAt: now - 600_000 - Int64(index) * 17_000, expiresAt: now + 3_600_000, revision: 1))
        }
        usleep(500_000)
        let before = try ProcessStatus(pid: live.pid)
        sleep(counts.idleSeconds)
        let after = try ProcessStatus(pid: live.pid)
        live.stop()
        return (after.voluntarySwitches - before.voluntarySwitches, after.mainThreadSwitches - before.mainThreadSwitches)
    }

    private func reportIdle(_ quiet: Quiet, _ live: (switches: Int, mainThreadSwitches: Int)) {
        let started = quiet.started, cycled = quiet.cycled, floorStatus = quiet.floor
        let minutes = Double(counts.idleSeconds) / 60
        let growth = Double(cycled.residentKiB - started.residentKiB) / Double(started.residentKiB) * 100
        rows.append(Row(figure: "RSS after start", unit: "KiB", samples: Samples([Double(started.residentKiB)]),
                        floorName: "C process, same libraries", floor: Double(floorStatus.residentKiB),
                        goal: "≤ 1.25 × floor", met: Double(started.residentKiB) <= 1.25 * Double(floorStatus.residentKiB)))
        rows.append(Row(figure: "Anonymous memory after start", unit: "KiB", samples: Samples([Double(started.anonymousKiB)]),
                        floorName: "C process, same libraries", floor: Double(floorStatus.anonymousKiB), goal: "≤ 4096 KiB",
                        met: started.anonymousKiB <= 4096))
        rows.append(Row(figure: "RSS after \(counts.cycles) Mirror/Remove cycles", unit: "KiB",
                        samples: Samples([Double(cycled.residentKiB)]), floorName: "RSS after start",
                        floor: Double(started.residentKiB), goal: "growth ≤ 5 % (was \(String(format: "%+.1f", growth)) %)",
                        met: growth <= 5))
        let warmGrowth = Double(cycled.residentKiB - quiet.afterWarmUp.residentKiB) / Double(quiet.afterWarmUp.residentKiB) * 100
        rows.append(Row(figure: "RSS after \(counts.cycles) cycles, beside after the first \(quiet.warmUpCycles)", unit: "KiB",
                        samples: Samples([Double(cycled.residentKiB)]), floorName: "RSS after \(quiet.warmUpCycles) cycles",
                        floor: Double(quiet.afterWarmUp.residentKiB),
                        goal: "growth ≤ 5 % (was \(String(format: "%+.1f", warmGrowth)) %)", met: warmGrowth <= 5))
        rows.append(Row(figure: "Anonymous memory after the cycles", unit: "KiB", samples: Samples([Double(cycled.anonymousKiB)]),
                        floorName: "after start", floor: Double(started.anonymousKiB), goal: "reported", met: nil))
        rows.append(Row(figure: "Voluntary context switches in \(counts.idleSeconds) s, no timer", unit: "switches",
                        samples: Samples([Double(quiet.idleSwitches)]), floorName: "C process, same libraries",
                        floor: Double(quiet.floorSwitches), goal: "0", met: quiet.idleSwitches == 0))
        rows.append(Row(figure: "Voluntary context switches in \(counts.idleSeconds) s, 3 live timers", unit: "switches",
                        samples: Samples([Double(live.switches)]), floorName: "—", floor: nil,
                        goal: "≤ \(Int((3 * minutes).rounded(.up))) (1 per timer per minute)",
                        met: Double(live.switches) <= (3 * minutes).rounded(.up)))
        rows.append(Row(figure: "… of which the main thread (the event loop)", unit: "switches",
                        samples: Samples([Double(live.mainThreadSwitches)]), floorName: "—", floor: nil,
                        goal: "reported (the rest: GDBus's worker thread, inside libnotify)", met: nil))
    }

    // MARK: 6. Scale

    private func scale() throws {
        // Without a notification server: thousands of notifications would
        // measure the server, not the agent.
        recorder?.stop()
        _ = try environment.waitForName("org.freedesktop.Notifications", present: false)
        var listPoints: [(n: Double, cost: Double)] = []
        var startPoints: [(n: Double, cost: Double)] = []
        var sweepPoints: [(n: Double, cost: Double)] = []
        // Completions go to a loopback port nothing listens on: each attempt
        // fails at once, so the sweep measures the agent, not the platform.
        let closedOrigin = "http://127.0.0.1:9"
        for size in counts.scaleSizes {
            let listEnvironment = try populatedAgent("scale-\(size)", timers: size)
            let started = try startups(environment.binaries + "/dfl-sleep-agent", name: BenchEnvironment.agentName,
                                       extra: listEnvironment, runs: max(1, counts.startups / 3))
            startPoints.append((Double(size), started.median))
            let agent = try environment.startAgent(listEnvironment)
            _ = try environment.waitForName(BenchEnvironment.agentName)
            let list = try timeCalls(max(3, min(50, 20_000 / size))) {
                _ = try environment.connection.callAndWait(BenchEnvironment.agentMessage(SleepTimers1.List.self))
            }
            listPoints.append((Double(size), list.samples.median))
            agent.stop()
            _ = try environment.waitForName(BenchEnvironment.agentName, present: false)

            let sweepEnvironment = try populatedAgent("sweep-\(size)", timers: size, completions: true, origin: closedOrigin)
            let before = Clock.monotonicNanoseconds()
            let sweeper = try environment.start(environment.binaries + "/dfl-sleep-agent", environment: sweepEnvironment,
                                                captureOutput: false, errorLog: environment.root + "/sweep-\(size).log")
            let deadline = Date().addingTimeInterval(600)
            // Only what the agent wrote since the last look is read, so
            // that watching costs the same at every size.
            let progress = LogCounter(path: environment.root + "/sweep-\(size).log", phrase: "will be tried again")
            while progress.count < size && Date() < deadline {
                usleep(20_000)
                progress.readNew()
            }
            sweepPoints.append((Double(size), Double(Clock.monotonicNanoseconds() - before) / 1e6))
            sweeper.stop()
            _ = try environment.waitForName(BenchEnvironment.agentName, present: false)
        }
        func describe(_ points: [(n: Double, cost: Double)], unit: String) -> String {
            points.map { "\(Int($0.n)): \(format($0.cost)) \(unit)" }.joined(separator: "; ")
        }
        for (name, points, unit) in [("List", listPoints, "µs"), ("Start to bus name", startPoints, "ms"),
                                     ("Full outbox sweep", sweepPoints, "ms")] {
            let exponent = fittedExponent(points)
            rows.append(Row(figure: "\(name) at \(counts.scaleSizes.map(String.init).joined(separator: "/")) rows",
                            unit: "exponent", samples: Samples([exponent]), floorName: describe(points, unit: unit),
                            floor: nil, goal: "≤ 1 (no faster than linear)", met: exponent <= 1.1))
        }
        notes.append("The scale exponent is the slope of log(cost) against log(rows); 1.1 is accepted as linear, since fixed costs and noise bend small sizes.")
    }
}

func format(_ value: Double) -> String {
    if value.isNaN { return "—" }
    if abs(value) >= 100 { return String(Int(value.rounded())) }
    if abs(value) >= 10 { return String(format: "%.1f", value) }
    return String(format: "%.2f", value)
}
