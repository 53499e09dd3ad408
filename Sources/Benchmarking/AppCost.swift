import Foundation
import Glibc

/// What one start of a browser-like program cost: the time from its start
/// to the page's load event, and the memory of its whole process tree (the
/// UI process, WebKit's network and web processes and their sandbox
/// helpers; for the app also its bridge), as proportional set size, so
/// that libraries shared between the processes count once.
struct PageLoadCost {
    let startToLoadedMilliseconds: Double
    let treeKiB: Int
}

/// The desktop app beside WebKitGTK's own MiniBrowser (libwebkitgtk-6.0-4),
/// both loading the demo web app's start page from the reference platform
/// over TLS, under one Xvfb, in the same run. The page announces its load
/// event to the platform (POST /demo/events), whose request log keeps the
/// arrival time; the start is taken just before the program is started.
final class AppCost {
    let environment: BenchEnvironment
    private let display: String
    private let miniBrowser: String
    private var starts = 0

    /// The page settles this long after its load event before the memory is
    /// read: late scripts, the bridge's first answers.
    static let settleMicroseconds: useconds_t = 2_000_000

    init(environment: BenchEnvironment) throws {
        self.environment = environment
        guard let miniBrowser = ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib"]
            .map({ $0 + "/webkitgtk-6.0/MiniBrowser" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else { throw BenchmarkError("MiniBrowser is missing: install the Debian package libwebkitgtk-6.0-4") }
        self.miniBrowser = miniBrowser
        let xvfb = try environment.start("/usr/bin/Xvfb", ["-displayfd", "1", "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                                         captureOutput: true)
        guard let number = xvfb.waitForLines(1, timeout: 30).first else { throw BenchmarkError("Xvfb did not start") }
        display = ":" + number
    }

    /// One round: the app, then MiniBrowser, each started once. The round
    /// loop calls this as often as it wants samples.
    func measureRound() throws -> (app: PageLoadCost, miniBrowser: PageLoadCost) {
        let app = try measure(environment.binaries + "/dreamsforlittles", [], extra: try appEnvironment())
        let browser = try measure(miniBrowser, ["--ignore-tls-errors", environment.apiOrigin + "/"],
                                  extra: browserEnvironment())
        return (app, browser)
    }

    private func measure(_ executable: String, _ arguments: [String], extra: [String: String]) throws -> PageLoadCost {
        starts += 1
        let loadsBefore = try loadEvents().count
        let started = wallClockNanoseconds()
        let child = try environment.start(executable, arguments, environment: extra,
                                          errorLog: environment.root + "/app-cost-\(starts).log")
        let deadline = Date().addingTimeInterval(120)
        var loaded: Int64?
        while loaded == nil {
            guard Date() < deadline, child.process.isRunning else {
                child.stop()
                throw BenchmarkError("\(executable) did not load the page; see \(environment.root)/app-cost-\(starts).log")
            }
            let events = try loadEvents()
            if events.count > loadsBefore { loaded = events.last }
            usleep(20_000)
        }
        usleep(Self.settleMicroseconds)
        let tree = processTree(root: child.pid)
        let kiB = tree.map(proportionalKiB).reduce(0, +)
        child.stop()
        waitForExit(tree)
        return PageLoadCost(startToLoadedMilliseconds: Double(loaded! - started) / 1e6, treeKiB: kiB)
    }

    private func appEnvironment() throws -> [String: String] {
        let config = environment.root + "/app-cost/config"
        try FileManager.default.createDirectory(atPath: config + "/dreamsforlittles", withIntermediateDirectories: true)
        try """
            [platform]
            allowed-origins=\(environment.apiOrigin)
            ca-file=\(environment.caFile)

            [app]
            web-origin=\(environment.apiOrigin)

            """.write(toFile: config + "/dreamsforlittles/sleep-agent.conf", atomically: true, encoding: .utf8)
        return browserEnvironment().merging(["XDG_CONFIG_HOME": config]) { $1 }
    }

    private func browserEnvironment() -> [String: String] {
        ["DISPLAY": display, "GTK_A11Y": "none", "NO_AT_BRIDGE": "1",
         "XDG_DATA_HOME": environment.root + "/app-cost/data", "XDG_CACHE_HOME": environment.root + "/app-cost/cache",
         "XDG_STATE_HOME": environment.root + "/app-cost/state"]
    }

    /// Arrival times (wall clock, ns) of the page's load events, oldest first.
    private func loadEvents() throws -> [Int64] {
        try environment.platformArrivals().filter { $0.path == "/demo/events" }.map(\.arrival)
    }

    private func wallClockNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// `root` and every process descended from it, from /proc.
    func processTree(root: Int32) -> [Int32] {
        var children: [Int32: [Int32]] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, let parent = Int32(fields[1]) { children[parent, default: []].append(pid) }
        }
        var tree = [root]
        var index = 0
        while index < tree.count {
            tree += children[tree[index]] ?? []
            index += 1
        }
        return tree
    }

    /// A process's proportional set size in KiB (0 once it is gone).
    func proportionalKiB(_ pid: Int32) -> Int {
        guard let rollup = try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8) else { return 0 }
        for line in rollup.split(separator: "\n") where line.hasPrefix("Pss:") {
            return Int(line.split(whereSeparator: { $0 == " " || $0 == "\t" })[1]) ?? 0
        }
        return 0
    }

    /// WebKit's helper processes end after their UI process; the next start
    /// must not share the machine with them.
    private func waitForExit(_ tree: [Int32]) {
        let deadline = Date().addingTimeInterval(30)
        while tree.contains(where: isRunning) && Date() < deadline { usleep(20_000) }
        for pid in tree where isRunning(pid) { kill(pid, SIGKILL) }
    }

    /// Whether a process is there and not a zombie awaiting its reaper.
    private func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return !stat[stat.index(after: close)...].hasPrefix(" Z")
    }
}
