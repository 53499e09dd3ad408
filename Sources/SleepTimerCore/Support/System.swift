import Glibc

/// The core's one seam to the operating system (as swift-system keeps its C
/// calls in one file): the real-time clock, the environment, and reading
/// small files. Everything else in the core is plain Swift, and none of it
/// needs Foundation.
enum System {
    /// Milliseconds since 1970 on the real-time clock, rounded down.
    static func realTimeMilliseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) &* 1000 &+ Int64(time.tv_nsec) / 1_000_000
    }

    /// Whether anything is at `path` (following symbolic links); false when
    /// it cannot be told, as when a directory on the way may not be searched.
    static func exists(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0
    }

    /// The first `limit` bytes of the file at `path`, read to the end or to
    /// the limit, whichever comes first: a caller that asks for one byte
    /// more than it accepts learns that a file is too large without reading
    /// all of it.
    static func read(_ path: String, limit: Int) throws(SystemError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw SystemError(errno: errno) }
        defer { close(descriptor) }
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

    /// The process's environment; of a name given twice, the last value.
    static func environment() -> [String: String] {
        var result: [String: String] = [:]
        var entry: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ
        while let current = entry, let pointer = current.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry = current + 1
        }
        return result
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
}
