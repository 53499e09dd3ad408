import Foundation
import Glibc
import Synchronization
import SleepTimerCore
@testable import SleepTimerStore

/// Log lines kept for assertions.
final class RecordingLog: LogSink {
    private let lines = Mutex<[String]>([])

    func log(_ priority: LogPriority, _ message: String) {
        lines.withLock { $0.append(JournalLine.format(priority, message)) }
    }

    var all: [String] { lines.withLock { $0 } }
}

/// A clock the test moves by hand.
final class ManualClock: WallClock {
    private let current: Mutex<Instant>

    init(_ start: Instant) { current = Mutex(start) }

    func now() -> Instant { current.withLock { $0 } }

    func advance(milliseconds: Int64) { current.withLock { $0 = $0.adding(milliseconds: milliseconds) } }
}

/// A fresh private directory per test, removed afterwards.
final class TemporaryDirectory {
    let path: String

    init() {
        var template = Array("/tmp/dfl-store-test-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    var stateDirectory: String { "\(path)/state/dreamsforlittles" }
}

enum StoreFixtures {
    static let now = Instant(millisecondsSince1970: 1_795_988_460_000)
    static let canary = "dflnat_CANARY_q8Zr2mXv0Lw9sT4kP1nB7cY3uH6eJ5dA"
    static let origin = try! APIOrigin(parsing: "https://api.dreamsforlittles.example")
    static let user = UserID("9b2f5c8e-1d4a-4e6b-8c3f-2a7d9e0b1c4f")!
    static let otherUser = UserID("0b2f5c8e-1d4a-4e6b-8c3f-2a7d9e0b1c40")!
    static let family = FamilySubjectID("c56a4180-65aa-42ec-a945-5fd21dec0538")!
    static let otherFamily = FamilySubjectID("d56a4180-65aa-42ec-a945-5fd21dec0539")!
    static let scope = TimerScope(apiOrigin: origin, userID: user, familySubjectID: family)

    static func timerID(_ index: Int) -> TimerID {
        let suffix = String(index, radix: 16)
        return TimerID("00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - suffix.count) + suffix)!
    }

    static func timer(
        _ index: Int, scope: TimerScope = scope, revision: Int64 = 1, name: String = "Maya",
        token: String? = canary, expiresIn: Int64 = 12 * Milliseconds.hour
    ) -> MirroredTimer {
        MirroredTimer(
            id: timerID(index), scope: scope, babyID: BabyID("7d444840-9dc0-11d1-b245-5ffdce74fad2")!,
            babyName: try! BabyName(validating: name), startedAt: now.adding(milliseconds: -83 * Milliseconds.minute),
            timeZone: TimeZoneName("Europe/Berlin")!, revision: revision, token: token.map(ActionToken.init(unvalidated:)),
            tokenExpiresAt: now.adding(milliseconds: expiresIn))
    }

    static func open(_ directory: TemporaryDirectory, log: RecordingLog = RecordingLog(), clock: ManualClock = ManualClock(now))
        throws(StoreError) -> SleepTimerStore
    {
        try SleepTimerStore(location: StoreLocation(directory: directory.stateDirectory), log: log, clock: clock)
    }
}

/// The store-crash-child executable, built beside the test bundle.
enum CrashChild {
    static var executable: String {
        let bundle = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(filePath: bundle).deletingLastPathComponent().appending(path: "store-crash-child").path
    }

    final class Running {
        let process = Process()
        private let output = Pipe()
        private var buffer = ""

        init(_ mode: String, directory: String) throws {
            process.executableURL = URL(filePath: CrashChild.executable)
            process.arguments = [mode, directory]
            process.standardOutput = output
            try process.run()
        }

        /// Blocks until the child prints `line`; false if it exits first.
        func waitFor(_ line: String) -> Bool {
            while !buffer.split(separator: "\n").contains(Substring(line)) {
                let data = output.fileHandleForReading.availableData
                if data.isEmpty { return false }
                buffer += String(decoding: data, as: UTF8.self)
            }
            return true
        }

        func kill() {
            Glibc.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }

        func wait() -> Int32 {
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    static func run(_ mode: String, directory: String) throws -> Int32 {
        try Running(mode, directory: directory).wait()
    }
}
