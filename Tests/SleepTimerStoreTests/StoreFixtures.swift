import DFLTestSupport
import Foundation
import Glibc
import SleepTimerCore
@testable import SleepTimerStore

/// How the store tests open a store: in a directory of the test's own, with
/// a log and a clock the test can inspect and move.
enum StoreFixtures {
    static func open(_ directory: TemporaryDirectory, log: RecordingLog = RecordingLog(), clock: ManualClock = ManualClock())
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
