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
    /// Anonymous resident memory (heap, stacks), in KiB.
    let anonymousKiB: Int
    /// Voluntary context switches of all its threads: how often it went to
    /// sleep, so how often something woke it.
    let voluntarySwitches: Int
    /// Those of the main thread alone, where the event loop runs.
    let mainThreadSwitches: Int

    init(pid: Int32) throws {
        func field(_ text: String, _ name: String) -> Int {
            for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
                return Int(line.dropFirst(name.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "") ?? 0
            }
            return 0
        }
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        residentKiB = field(status, "VmRSS")
        anonymousKiB = field(status, "RssAnon")
        var switches = 0
        var main = 0
        for task in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? [] {
            if let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8) {
                let count = field(text, "voluntary_ctxt_switches")
                switches += count
                if task == String(pid) { main = count }
            }
        }
        voluntarySwitches = switches
        mainThreadSwitches = main
    }
}

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
