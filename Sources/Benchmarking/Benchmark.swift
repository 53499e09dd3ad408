import DFLDBus
import Foundation

/// What one run measured: for each quantity, its value in each round.
struct Measurements {
    private(set) var values: [Quantity: [Double]] = [:]

    mutating func add(_ quantity: Quantity, _ value: Double) {
        values[quantity, default: []].append(value)
    }

    subscript(_ quantity: Quantity) -> [Double] { values[quantity] ?? [] }
}

/// Every quantity the benchmark records, a value per round (or one value
/// for what is measured once).
enum Quantity: Hashable {
    // Round trips
    case pingMedian, pingRate, echoMedian, echoP99, echoRate, listMedian, listP99, listRate
    case loopEchoMedian, loopEchoP99, loopEchoRate, loopEchoDispatch, listDispatch
    case mirrorMedian, mirrorP99, mirrorRate
    // Mirror → Notify
    case commitMedian, showMedian, updateMedian, mirrorToNotifyMedian
    // Complete → POST
    case reusedPostMedian, newPostMedian, completeToPostMedian
    // Complete → POST in steps, traced
    case completeTracedTotal, completeStepRead, completeStepCommit, completeStepSync, completeStepSignal
    case completeStepPost, completeStepArrival
    // Start-up
    case startFloor, startAgent, firstAnswerFloor, firstAnswerAgent, loadFloor, loadAgent, storeOpen
    // Memory after start, and where it lies
    case residentFloor, residentAgent, anonymousFloor, anonymousAgent
    case executableAgent, executableFloor, librariesAgent, librariesFloor, librariesOnlyAgent
    // Wake-ups
    case idleSwitchesFloor, idleSwitchesAgent
    case boundarySwitchesFloor, boundarySwitchesAgent, boundaryLoopSwitchesAgent, boundaryNotifyThreadSwitchesAgent
    // The desktop app beside MiniBrowser
    case pageLoadedApp, pageLoadedBrowser, treeApp, treeBrowser
    // Once: growth under load, and scale
    case residentBeforeCycles, residentAfterWarmUp, residentAfterCycles, anonymousAfterCycles
    case scaleExponent(String)
}

/// The benchmark run: starts the environment, then measures every figure
/// and its floor in interleaved rounds (in each round the floor first, then
/// the agent), and a few figures that need no floor once; `rows` turns the
/// measurements into the report's lines.
final class Benchmark {
    struct Counts {
        var rounds = 3
        var roundTrips = 2000
        var mirrorsToNotify = 300
        var completions = 100
        /// Starts of the floor and of the agent, in turns, per round.
        var startups = 10
        var cycles = 10_000
        var idleSeconds: UInt32 = 60
        /// The agent holds at most 64 timers (TimerLimitRule): the scale runs up to that.
        var scaleSizes = [1, 4, 16, 64]
        /// Starts of the desktop app and of MiniBrowser, in turns, per round
        /// (after one unmeasured pair in the first round, with `appWarmUp`).
        var appStarts = 2
        var appWarmUp = true
        var sections = Set(Section.allCases)

        static let quick = Counts(rounds: 2, roundTrips: 50, mirrorsToNotify: 10, completions: 5, startups: 2, cycles: 100,
                                  idleSeconds: 2, scaleSizes: [1, 4], appStarts: 1, appWarmUp: false)
    }

    /// The parts of a run, for measuring some alone (dfl-bench --only).
    enum Section: String, CaseIterable {
        case trips, notify, complete, startup, idle, app, cycles, scale
    }

    let environment: BenchEnvironment
    let counts: Counts
    var floors = ""
    var measured = Measurements()
    /// What the scale section saw at each size, for its rows.
    var scalePoints: [String: [(n: Double, cost: Double)]] = [:]
    var recorderLog = ""
    var recorder: Child?
    /// Resident KiB of each library of the agent after start, and of those
    /// the C process does not load, in the last round.
    var agentLibraries: [String: Int] = [:]
    var agentOnlyLibraries: [String: Int] = [:]
    /// The display and MiniBrowser of the app section, made in its first round.
    var appCost: AppCost?
    /// The round being measured, from 1; each round's agents get state
    /// directories of their own.
    var round = 0

    init(environment: BenchEnvironment, counts: Counts) {
        self.environment = environment
        self.counts = counts
    }

    func log(_ text: String) {
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
        _ = try environment.waitForName(ExternalInterface.Notifications.name)

        for round in 1...counts.rounds {
            self.round = round
            let label = "round \(round) of \(counts.rounds)"
            try section(.trips, "\(label): round trips", roundTrips)
            try section(.notify, "\(label): Mirror to Notify", mirrorToNotify)
            try section(.complete, "\(label): Complete to POST", completeToPost)
            try section(.startup, "\(label): start-up", startup)
            try section(.idle, "\(label): memory and wake-ups", idle)
            try section(.app, "\(label): the desktop app beside MiniBrowser", desktopApp)
        }
        try section(.cycles, "memory under \(counts.cycles) changes", cycles)
        try section(.scale, "scale", scale)
    }

    private func section(_ section: Section, _ label: String, _ body: () throws -> Void) throws {
        guard counts.sections.contains(section) else { return }
        log(label)
        try body()
    }

    /// The report's lines; with some sections only, those they measured.
    var rows: [Row] {
        let all = Self.rows(measured, scale: scalePoints, counts: counts)
        return counts.sections == Set(Section.allCases) ? all : all.filter { !$0.rounds.isEmpty }
    }

    /// The largest libraries by resident KiB, as "name size" phrases.
    private static func largest(_ libraries: [String: Int], count: Int = 8) -> String {
        libraries.sorted { $0.value > $1.value }.prefix(count)
            .map { "\($0.key.split(separator: "/").last ?? "") \($0.value) KiB" }.joined(separator: ", ")
    }

    var notes: [String] {
        var notes = [String]()
        if !agentLibraries.isEmpty {
            notes.append("The agent's largest libraries after start (resident, last round): \(Self.largest(agentLibraries)). Of those the C process does not load: \(agentOnlyLibraries.isEmpty ? "none" : Self.largest(agentOnlyLibraries)).")
        }
        return notes + [
            "The wake-ups are counted over \(counts.idleSeconds) s, as voluntary context switches of all the process's threads (a switch is a sleep, so something woke it); the floor runs in the same \(counts.idleSeconds) s as the agent. With three running timers the agent's timers and the floor's three notifications share one minute boundary inside the window.",
            "RSS after start is split by where the pages come from: the executable's own file, the shared libraries' files, and anonymous memory (heap, stacks, and the private copies of relocated data).",
            "The desktop app and MiniBrowser (WebKitGTK's own, libwebkitgtk-6.0-4) start in turns (\(counts.appStarts) of each per round) under one Xvfb and load the demo web app's start page from the reference platform over TLS; the time runs from the start to the page's load event reaching the platform, the memory is the proportional set size of the whole process tree \(AppCost.settleMicroseconds / 1_000_000) s later (the app's includes dfl-webview-bridge). MiniBrowser ignores the test CA's certificate (--ignore-tls-errors); the app verifies it against the configured ca-file after its first attempt fails, and loads again.",
            "The agent holds at most 64 timers; the scale figures run up to that many, in a store filled directly (the limit is Mirror's). The exponent is the slope of log(cost) against log(rows); 1.1 is accepted as linear, since fixed costs and noise bend small sizes.",
        ]
    }
}
