import Foundation
import Synchronization

/// A child process of the benchmark, stopped by pid at the end. Its output
/// lines arrive on a reader thread, behind the mutex.
final class Child: Sendable {
    let process = Process()
    private let output = Pipe()
    /// Output not yet ended by a newline, and the lines so far.
    private let received = Mutex<(buffered: String, lines: [String])>(("", []))

    init(_ executable: String, _ arguments: [String], environment: [String: String], captureOutput: Bool = false,
         errorLog: String? = nil) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        if captureOutput {
            process.standardOutput = output
            output.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let data = handle.availableData
                guard let self, !data.isEmpty else { return }
                self.received.withLock { received in
                    received.buffered += String(decoding: data, as: UTF8.self)
                    while let newline = received.buffered.firstIndex(of: "\n") {
                        received.lines.append(String(received.buffered[..<newline]))
                        received.buffered.removeSubrange(...newline)
                    }
                }
            }
        } else {
            process.standardOutput = FileHandle.nullDevice
        }
        if let errorLog {
            _ = FileManager.default.createFile(atPath: errorLog, contents: nil)
            process.standardError = FileHandle(forWritingAtPath: errorLog)
        } else {
            process.standardError = FileHandle.nullDevice
        }
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }

    var lines: [String] { received.withLock { $0.lines } }

    /// Waits until `count` lines have been printed, or the process ends.
    func waitForLines(_ count: Int, timeout: Double = 120) -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        while lines.count < count && process.isRunning && Date() < deadline { usleep(2000) }
        return lines
    }

    func waitForExit() {
        process.waitUntilExit()
    }

    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            let deadline = Date().addingTimeInterval(30)
            while process.isRunning && Date() < deadline { usleep(2000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
        output.fileHandleForReading.readabilityHandler = nil
    }
}

/// Runs a command to its end and returns its standard output.
@discardableResult
func runCommand(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw BenchmarkError("\(executable) \(arguments.joined(separator: " ")) failed with status \(process.terminationStatus)")
    }
    return String(decoding: data, as: UTF8.self)
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Memory and wake-ups of a process, from /proc.
struct ProcessStatus {
    /// Resident set size, in KiB.
    let residentKiB: Int
    /// Anonymous resident memory (heap, stacks, private copies of
    /// relocated data), in KiB.
    let anonymousKiB: Int
    /// Voluntary context switches of all its threads: how often it went to
    /// sleep, so how often something woke it.
    let voluntarySwitches: Int
    /// Those of the main thread alone, where the event loop runs.
    let mainThreadSwitches: Int
    /// Those of the other threads, by thread name (threads of one name summed).
    let threadSwitches: [String: Int]

    init(pid: Int32) throws {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        residentKiB = Self.field(status, "VmRSS")
        anonymousKiB = Self.field(status, "RssAnon")
        var switches = 0
        var main = 0
        var byName: [String: Int] = [:]
        for task in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? [] {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8) else { continue }
            let count = Self.field(text, "voluntary_ctxt_switches")
            switches += count
            if task == String(pid) {
                main = count
            } else {
                let name = text.split(separator: "\n").first { $0.hasPrefix("Name:") }
                    .map { $0.dropFirst(5).trimmingCharacters(in: .whitespaces) } ?? "?"
                byName[name, default: 0] += count
            }
        }
        voluntarySwitches = switches
        mainThreadSwitches = main
        threadSwitches = byName
    }

    static func field(_ text: String, _ name: String) -> Int {
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            return Int(line.dropFirst(name.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "") ?? 0
        }
        return 0
    }
}

/// Where a process's resident pages come from, from /proc/PID/smaps: the
/// executable's own file, the shared libraries' files, and anonymous memory
/// (heap, stacks, and the private copies of file pages that relocation
/// wrote to). The three add up to the RSS.
struct MemoryMap {
    let executableKiB: Int
    let librariesKiB: Int
    let anonymousKiB: Int
    /// Resident KiB of each shared library (file pages and their private copies), by path.
    let libraries: [String: Int]

    /// nil when smaps cannot be read (a process that is not dumpable, read
    /// by another user).
    init?(pid: Int32) {
        // Read to the end: a file of /proc says its size is 0.
        guard let handle = FileHandle(forReadingAtPath: "/proc/\(pid)/smaps"),
            let data = try? handle.readToEnd(), (try? handle.close()) != nil
        else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")) ?? ""
        var executableKiB = 0, librariesKiB = 0, total = 0
        var libraries: [String: Int] = [:]
        var path = ""
        var resident = 0
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if let first = fields.first, first.contains("-"), !first.hasSuffix(":") {
                path = fields.count >= 6 ? fields[5...].joined(separator: " ") : ""
            } else if first(of: line, is: "Rss:") {
                resident = Int(fields[1]) ?? 0
                total += resident
            } else if first(of: line, is: "Anonymous:") {
                let filePages = resident - (Int(fields[1]) ?? 0)
                if path == executable {
                    executableKiB += filePages
                } else if path.hasPrefix("/") {
                    librariesKiB += filePages
                    libraries[path, default: 0] += resident
                }
            }
        }
        self.executableKiB = executableKiB
        self.librariesKiB = librariesKiB
        anonymousKiB = total - executableKiB - librariesKiB
        self.libraries = libraries
    }
}

private func first(of line: Substring, is prefix: String) -> Bool { line.hasPrefix(prefix) }

/// A plain HTTP GET to the reference platform's control API on loopback.
func controlGet(_ baseURL: String, _ path: String) throws -> [UInt8] {
    guard let url = URL(string: baseURL), let host = url.host, let port = url.port else {
        throw BenchmarkError("bad control URL \(baseURL)")
    }
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    inet_pton(AF_INET, host, &address.sin_addr)
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { throw BenchmarkError("cannot reach the control API") }
    let request = Array("GET \(path) HTTP/1.0\r\nHost: \(host)\r\n\r\n".utf8)
    _ = request.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    var response: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = read(descriptor, &buffer, buffer.count)
        if count <= 0 { break }
        response += buffer[0..<count]
    }
    guard let split = response.firstRange(of: Array("\r\n\r\n".utf8)) else { throw BenchmarkError("bad control reply") }
    return Array(response[split.upperBound...])
}

/// Counts a phrase in a growing log file, reading only what was appended
/// since the last call.
final class LogCounter {
    private let path: String
    private let phrase: [UInt8]
    private var offset: UInt64 = 0
    /// The end of the last read, kept so that a phrase cut in two by a read
    /// is still found.
    private var carry: [UInt8] = []
    private(set) var count = 0

    init(path: String, phrase: String) {
        self.path = path
        self.phrase = Array(phrase.utf8)
    }

    func readNew() {
        guard let handle = FileHandle(forReadingAtPath: path) else { return }
        defer { try? handle.close() }
        guard (try? handle.seek(toOffset: offset)) != nil, let data = try? handle.readToEnd(), !data.isEmpty else { return }
        offset += UInt64(data.count)
        let bytes = carry + Array(data)
        var index = 0
        while index + phrase.count <= bytes.count {
            if bytes[index] == phrase[0] && Array(bytes[index..<index + phrase.count]) == phrase {
                count += 1
                index += phrase.count
            } else {
                index += 1
            }
        }
        // Keep at most phrase.count - 1 bytes that were not part of a match.
        carry = Array(bytes[max(index, bytes.count - (phrase.count - 1))...])
    }
}

/// Milliseconds from spawning a program to its exit, its output thrown
/// away: posix_spawn and waitpid, so that nothing but the program itself
/// (no run loop, no output reader) stands between the two readings.
func timeToExit(_ executable: String, _ arguments: [String], environment: [String: String]) throws -> Double {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var pid: pid_t = 0
    let before = Clock.monotonicNanoseconds()
    let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
    guard spawned == 0 else { throw BenchmarkError("cannot start \(executable): \(String(cString: strerror(spawned)))") }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let after = Clock.monotonicNanoseconds()
    guard status == 0 else { throw BenchmarkError("\(executable) \(arguments.joined(separator: " ")) failed with status \(status)") }
    return Double(after - before) / 1e6
}
