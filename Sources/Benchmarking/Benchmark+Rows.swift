/// The report's lines, from what a run measured: each figure of the agent
/// beside the floor of the same rounds, and the goal it is judged on.
extension Benchmark {
    static func rows(_ m: Measurements, scale: [String: [(n: Double, cost: Double)]], counts: Counts) -> [Row] {
        roundTripRows(m) + endToEndRows(m) + startupRows(m) + memoryRows(m) + wakeUpRows(m, counts: counts) + appRows(m)
            + onceRows(m, scale: scale, counts: counts)
    }

    /// `a + b + margin`, round by round.
    private static func sum(_ a: [Double], _ b: [Double], plus margin: Double) -> [Double] {
        zip(a, b).map { $0 + $1 + margin }
    }

    private static func roundTripRows(_ m: Measurements) -> [Row] {
        [
            Row("Peer.Ping to the bus daemon, p50", unit: "µs", rounds: m[.pingMedian], goalText: "the bus's own floor"),
            Row("C libdbus Echo(s) service, p50", unit: "µs", rounds: m[.echoMedian], floorName: "Peer.Ping",
                floors: m[.pingMedian], goalText: "the floor for a service"),
            Row("C libdbus Echo(s) from a GLib loop, driven as the agent's connection is, p50", unit: "µs",
                rounds: m[.loopEchoMedian], floorName: "C Echo", floors: m[.echoMedian],
                goalText: "reported: the loop's share"),
            Row("List (3 timers), p50", unit: "µs", rounds: m[.listMedian], floorName: "C Echo", floors: m[.echoMedian],
                goal: .atMost(1.10)),
            Row("… List beside the GLib-loop Echo, p50", unit: "µs", rounds: m[.listMedian], floorName: "GLib-loop Echo",
                floors: m[.loopEchoMedian], goalText: "reported: the agent's own share"),
            Row("… inside the process: the call read → the reply written (traced, p50)", unit: "µs",
                rounds: m[.listDispatch], floorName: "GLib-loop Echo, the same", floors: m[.loopEchoDispatch],
                goalText: "reported: the dispatch path"),
            Row("List (3 timers), p99", unit: "µs", rounds: m[.listP99], floorName: "C Echo p99", floors: m[.echoP99]),
            Row("GLib-loop Echo throughput", unit: "calls/s", rounds: m[.loopEchoRate], floorName: "C Echo",
                floors: m[.echoRate], goalText: "reported: the loop's share"),
            Row("List throughput", unit: "calls/s", rounds: m[.listRate], floorName: "C Echo", floors: m[.echoRate],
                goal: .atLeast(0.95)),
            Row("… List throughput beside the GLib-loop Echo", unit: "calls/s", rounds: m[.listRate],
                floorName: "GLib-loop Echo", floors: m[.loopEchoRate], goalText: "reported: the agent's own share"),
            Row("Peer.Ping throughput", unit: "calls/s", rounds: m[.pingRate]),
            Row("Mirror (durable write, notification update), p50", unit: "µs", rounds: m[.mirrorMedian],
                floorName: "C Echo", floors: m[.echoMedian],
                goalText: "reported (p99 \(Report.values(m[.mirrorP99], unit: "µs")))"),
            Row("Mirror throughput", unit: "calls/s", rounds: m[.mirrorRate], floorName: "C Echo", floors: m[.echoRate]),
        ]
    }

    private static func endToEndRows(_ m: Measurements) -> [Row] {
        [
            Row("SQLite WAL insert + commit, synchronous=FULL, p50", unit: "µs", rounds: m[.commitMedian], goalText: "floor"),
            Row("C libnotify show → Notify received, p50", unit: "µs", rounds: m[.showMedian], goalText: "floor"),
            Row("C libnotify update in place → Notify received, p50", unit: "µs", rounds: m[.updateMedian],
                goalText: "floor"),
            Row("Mirror → Notify received, p50", unit: "µs", rounds: m[.mirrorToNotifyMedian],
                floorName: "commit + show + 150 µs", floors: sum(m[.commitMedian], m[.showMedian], plus: 150),
                goal: .atMost(1.0)),
            Row("libcurl HTTPS POST on loopback, reused handle → arrival, p50", unit: "µs", rounds: m[.reusedPostMedian],
                goalText: "floor"),
            Row("libcurl HTTPS POST on loopback, new handle → arrival, p50", unit: "µs", rounds: m[.newPostMedian],
                goalText: "floor"),
            Row("Complete (D-Bus call) → POST arriving at the platform, p50", unit: "µs", rounds: m[.completeToPostMedian],
                floorName: "commit + reused POST + 300 µs", floors: sum(m[.commitMedian], m[.reusedPostMedian], plus: 300),
                goal: .atMost(1.0)),
        ] + completeStepRows(m)
    }

    /// Complete → POST again, by an agent whose socket reads and writes and
    /// file syncs are traced, split into its steps.
    private static func completeStepRows(_ m: Measurements) -> [Row] {
        [
            Row("… traced in steps (another agent, step-trace preloaded): Complete → POST arriving, p50", unit: "µs",
                rounds: m[.completeTracedTotal]),
            Row("… … the call sent → read by the agent's loop (bus daemon, wake-up)", unit: "µs",
                rounds: m[.completeStepRead]),
            Row("… … read → the commit synced (decoding, the transaction)", unit: "µs", rounds: m[.completeStepCommit],
                floorName: "SQLite WAL commit", floors: m[.commitMedian]),
            Row("… … … of which the fdatasync", unit: "µs", rounds: m[.completeStepSync]),
            Row("… … commit → the TimerChanged signal written", unit: "µs", rounds: m[.completeStepSignal]),
            Row("… … signal → the POST's write begins (the outbox read, the body, libcurl's handle)", unit: "µs",
                rounds: m[.completeStepPost]),
            Row("… … the POST's write → arriving at the platform (TLS, loopback)", unit: "µs",
                rounds: m[.completeStepArrival], floorName: "libcurl reused POST", floors: m[.reusedPostMedian]),
        ]
    }

    /// `a - b`, round by round.
    private static func difference(_ a: [Double], _ b: [Double]) -> [Double] {
        zip(a, b).map { $0 - $1 }
    }

    private static func startupRows(_ m: Measurements) -> [Row] {
        [
            Row("Start to bus name", unit: "ms", rounds: m[.startAgent], floorName: "C process, same libraries",
                floors: m[.startFloor], goal: .atMost(1.30)),
            Row("… loading alone: spawn to the exit of --version (process, libraries, runtime; and the exit)", unit: "ms",
                rounds: m[.loadAgent], floorName: "C process", floors: m[.loadFloor]),
            Row("Name to the first call answered (store, notifications, panel, system bus; the floor: Peer.Ping)",
                unit: "ms", rounds: difference(m[.firstAnswerAgent], m[.startAgent]), floorName: "C process",
                floors: difference(m[.firstAnswerFloor], m[.startFloor])),
            Row("… of which opening the store (schema, WAL, quick_check), timed alone", unit: "ms", rounds: m[.storeOpen]),
            Row("Start to the first call answered (List; the floor: Peer.Ping)", unit: "ms", rounds: m[.firstAnswerAgent],
                floorName: "C process, same libraries", floors: m[.firstAnswerFloor]),
        ]
    }

    private static func memoryRows(_ m: Measurements) -> [Row] {
        [
            Row("RSS after start", unit: "KiB", rounds: m[.residentAgent], floorName: "C process, same libraries",
                floors: m[.residentFloor], goal: .atMost(1.30)),
            Row("… the executable's own file pages", unit: "KiB", rounds: m[.executableAgent], floorName: "C process",
                floors: m[.executableFloor]),
            Row("… the shared libraries' file pages", unit: "KiB", rounds: m[.librariesAgent], floorName: "C process",
                floors: m[.librariesFloor]),
            Row("… of which libraries the C process does not load", unit: "KiB", rounds: m[.librariesOnlyAgent]),
            Row("… anonymous memory", unit: "KiB", rounds: m[.anonymousAgent], floorName: "C process",
                floors: m[.anonymousFloor], goal: .atMostValue(4096), goalText: "≤ 4096 KiB"),
        ]
    }

    private static func wakeUpRows(_ m: Measurements, counts: Counts) -> [Row] {
        let seconds = counts.idleSeconds
        return [
            Row("Voluntary context switches in \(seconds) s, no timer", unit: "switches", rounds: m[.idleSwitchesAgent],
                floorName: "C process, same libraries", floors: m[.idleSwitchesFloor], goal: .atMostValue(0), goalText: "0"),
            Row("Voluntary context switches in \(seconds) s, 3 running timers, one minute boundary", unit: "switches",
                rounds: m[.boundarySwitchesAgent], floorName: "C libnotify, the same 3 updates, + 1",
                floors: m[.boundarySwitchesFloor].map { $0 + 1 }, goal: .atMost(1.0)),
            Row("… of which the agent's loop thread", unit: "switches", rounds: m[.boundaryLoopSwitchesAgent]),
            Row("… of which its libnotify thread (the rest: GDBus's worker inside libnotify)", unit: "switches",
                rounds: m[.boundaryNotifyThreadSwitchesAgent]),
        ]
    }

    private static func appRows(_ m: Measurements) -> [Row] {
        [
            Row("Desktop app: start to the page's load event", unit: "ms", rounds: m[.pageLoadedApp],
                floorName: "MiniBrowser, same page", floors: m[.pageLoadedBrowser], goal: .atMost(1.2)),
            Row("Desktop app: memory of its process tree (PSS)", unit: "KiB", rounds: m[.treeApp],
                floorName: "MiniBrowser's tree", floors: m[.treeBrowser], goal: .atMost(1.2)),
        ]
    }

    private static func onceRows(_ m: Measurements, scale: [String: [(n: Double, cost: Double)]], counts: Counts) -> [Row] {
        let warmUp = max(1, counts.cycles / 100)
        var rows = [
            Row("RSS after \(counts.cycles) Mirror/Remove cycles (once)", unit: "KiB", rounds: m[.residentAfterCycles],
                floorName: "RSS after start", floors: m[.residentBeforeCycles],
                goalText: "reported: the first timer loads GSettings and the text's pages"),
            Row("RSS after \(counts.cycles) cycles, beside after the first \(warmUp) (once)", unit: "KiB",
                rounds: m[.residentAfterCycles], floorName: "RSS after \(warmUp) cycles", floors: m[.residentAfterWarmUp],
                goal: .atMost(1.05), goalText: "growth ≤ 5 %"),
            Row("Anonymous memory after the cycles (once)", unit: "KiB", rounds: m[.anonymousAfterCycles]),
        ]
        let sizes = counts.scaleSizes.map(String.init).joined(separator: "/")
        for name in ["List", "Start to the first List answered", "Full outbox sweep"] {
            let points = scale[name] ?? []
            let unit = name == "List" ? "µs" : "ms"
            let described = points.map { "\(Int($0.n)): \(format($0.cost)) \(unit)" }.joined(separator: "; ")
            rows.append(Row("\(name) at \(sizes) timers (once)", unit: "exponent", rounds: m[.scaleExponent(name)],
                            floorName: described.isEmpty ? "—" : described, goal: .atMostValue(1.1),
                            goalText: "≤ 1 (no faster than linear)"))
        }
        return rows
    }
}
