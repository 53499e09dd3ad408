import SleepTimerCore

/// What `floors/step-trace.c`, preloaded into the agent, recorded: the
/// moment each socket read or write and each file sync returned, with the
/// thread that made it. The benchmark pairs these with the moments it knows
/// from outside (a call sent, a request arriving) to split a path into its
/// steps.
struct StepTrace {
    enum Kind: Int16 { case socketRead = 1, socketWrite = 2, fileSync = 3 }
    enum Place: Int16 { case localSocket = 1, networkSocket = 2, regularFile = 3 }

    struct Step {
        /// Wall clock, ns since the epoch, when the call returned.
        let wall: Int64
        let duration: Int64
        let thread: Int32
        let kind: Kind
        let place: Place
        let bytes: Int64
    }

    let steps: [Step]

    /// The most records a file holds: step-trace.c's CAPACITY.
    static let capacity = 65_536

    /// The record file: a count, then 32-byte records (`struct step`).
    init(path: String) throws {
        // Read with the core's reader, not Foundation's, which leaks its
        // buffer on an empty file (LeakSanitizer reports it).
        let data: [UInt8]
        do {
            data = try System.read(path, limit: 8 + Self.capacity * 32)
        } catch {
            throw BenchmarkError("cannot read the step trace \(path): \(error)")
        }
        guard data.count >= 8 else { throw BenchmarkError("the step trace \(path) is empty: was the preload loaded?") }
        func integer<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T {
            data.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) }
        }
        let count = min(Int(integer(0, UInt64.self)), (data.count - 8) / 32)
        steps = (0..<count).compactMap { index in
            let base = 8 + index * 32
            guard let kind = Kind(rawValue: integer(base + 20, Int16.self)),
                let place = Place(rawValue: integer(base + 22, Int16.self))
            else { return nil }
            return Step(wall: integer(base, Int64.self), duration: integer(base + 8, Int64.self),
                        thread: integer(base + 16, Int32.self), kind: kind, place: place, bytes: integer(base + 24, Int64.self))
        }
    }

    /// Microseconds from each read of `thread` on a local socket to its
    /// next write there: a call read and its reply written, for a service
    /// that answers every call at once and sends nothing else.
    func callsAnswered(between start: Int64, _ end: Int64, thread: Int32) -> [Double] {
        var times: [Double] = []
        var read: Step?
        for step in between(start, end) where step.thread == thread && step.place == .localSocket {
            if step.kind == .socketRead {
                read = step
            } else if step.kind == .socketWrite, let call = read {
                times.append(Double(step.wall - call.wall) / 1000)
                read = nil
            }
        }
        return times
    }

    /// The steps between two moments, in order.
    func between(_ start: Int64, _ end: Int64) -> [Step] {
        steps.filter { $0.wall > start && $0.wall <= end }.sorted { $0.wall < $1.wall }
    }
}

extension Benchmark {
    /// The environment that has a process traced into `path`.
    func stepTrace(to path: String) -> [String: String] {
        ["LD_PRELOAD": floors + "/step-trace.so", "DFL_STEP_TRACE": path]
    }
}
