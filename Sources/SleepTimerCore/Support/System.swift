import Glibc

/// The core's one seam to the operating system (as swift-system keeps its C
/// calls in one file): the real-time clock, the environment, and reading
/// small files. Everything else in the core is plain Swift, and none of it
/// needs Foundation.
public enum System {
    /// Milliseconds since 1970 on the real-time clock, rounded down.
    static func realTimeMilliseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) &* 1000 &+ Int64(time.tv_nsec) / 1_000_000
    }

    /// The first `limit` bytes of the file at `path`, read to the end or to
    /// the limit, whichever comes first: a caller that asks for one byte
    /// more than it accepts learns that a file is too large without reading
    /// all of it.
    public static func read(_ path: String, limit: Int) throws(SystemError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw SystemError(errno: errno) }
        defer { close(descriptor) }
        return try read(descriptor, limit: limit)
    }

    /// Like `read(_:limit:)`, for a file someone else may have put in the
    /// way: a symbolic link at `path` is not followed and anything but a
    /// regular file is not read (a FIFO would block, a device never end),
    /// both told apart by `fstat` on what was opened, not by a look before.
    /// Nil when nothing is at `path`, or when that cannot be told (a
    /// directory on the way may not be searched).
    static func readRegularFile(_ path: String, limit: Int) throws(FileReadError) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else {
            let error = errno
            var status = stat()
            guard lstat(path, &status) == 0 else { return nil }
            switch status.st_mode & S_IFMT {
            case S_IFLNK: throw .symbolicLink
            case S_IFREG: throw .system(SystemError(errno: error))
            default: throw .notRegularFile
            }
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .system(SystemError(errno: errno)) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .notRegularFile }
        do {
            return try read(descriptor, limit: limit)
        } catch {
            throw .system(error)
        }
    }

    private static func read(_ descriptor: Int32, limit: Int) throws(SystemError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: limit)
        var count = 0
        while count < limit {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + count, limit - count) }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { throw SystemError(errno: errno) }
            if got == 0 { break }
            count += got
        }
        bytes.removeSubrange(count...)
        return bytes
    }

    /// Writes `text` to stderr whole, in as few writes as the kernel takes
    /// (one, for a log line), going on after an interruption.
    static func writeStandardError(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { write(2, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// The process's environment; of a name given twice, the last value.
    static func environment() -> [String: String] {
        var entries: [String] = []
        var entry: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ
        while let current = entry, let pointer = current.pointee {
            entries.append(String(cString: pointer))
            entry = current + 1
        }
        return environment(entries)
    }

    /// The environment the process was given at exec, from
    /// /proc/self/environ, which a library's constructor cannot change
    /// before main as it can `environ`; `environ` if that cannot be read.
    static func startEnvironment() -> [String: String] {
        var bytes: [UInt8] = []
        let descriptor = open("/proc/self/environ", O_RDONLY | O_CLOEXEC)
        if descriptor >= 0 {
            defer { close(descriptor) }
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = Glibc.read(descriptor, &chunk, chunk.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                bytes += chunk[0..<count]
            }
        }
        let entries = bytes.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        return entries.isEmpty ? environment() : environment(entries)
    }

    /// NAME=value entries as a dictionary; of a name given twice, the last
    /// value; an entry without `=` is passed over.
    static func environment(_ entries: [String]) -> [String: String] {
        var result: [String: String] = [:]
        for text in entries {
            guard let equals = text.firstIndex(of: "=") else { continue }
            result[String(text[..<equals])] = String(text[text.index(after: equals)...])
        }
        return result
    }
}

/// Why a file that is there was not read, in words that follow its path.
public enum FileReadError: Error, Sendable, Equatable, CustomStringConvertible {
    case symbolicLink
    case notRegularFile
    case system(SystemError)

    public var description: String {
        switch self {
        case .symbolicLink: "is a symbolic link, which is not followed; put the file itself there"
        case .notRegularFile: "is not a regular file"
        case .system(let error): "cannot be read (\(error))"
        }
    }
}

/// A failed system call, named by its errno and described by strerror.
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    public let errno: Int32

    public init(errno: Int32) { self.errno = errno }

    public var description: String { String(cString: strerror(errno)) }
}

/// The environment the process was started with, for the mains to hand on.
public enum ProcessEnvironment {
    public static var current: [String: String] { System.environment() }

    /// As the process was given it at exec, for a program linked with a
    /// library that changes `environ` before main: GDK takes the launch's
    /// activation token (DESKTOP_STARTUP_ID, XDG_ACTIVATION_TOKEN) out of it
    /// in a constructor.
    public static var atStart: [String: String] { System.startEnvironment() }
}
