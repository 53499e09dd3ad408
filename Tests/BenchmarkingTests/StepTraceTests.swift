import Foundation
import Testing
@testable import Benchmarking

@Suite struct StepTraceTests {
    typealias Step = StepTrace.Step

    /// A record file as the preload writes it: a count, then 32-byte records.
    private func traceFile(_ records: [(Int64, Int64, Int32, Int16, Int16, Int64)], count: UInt64? = nil) throws -> String {
        var data = Data()
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        append(count ?? UInt64(records.count))
        for (wall, duration, thread, kind, place, bytes) in records {
            append(wall); append(duration); append(thread); append(kind); append(place); append(bytes)
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("steps-\(UUID().uuidString)").path
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func recordsAreReadAsThePreloadWritesThem() throws {
        let path = try traceFile([(1_000, 5, 42, 1, 1, 264), (2_000, 300, 42, 3, 3, 0)])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let trace = try StepTrace(path: path)
        #expect(trace.steps.count == 2)
        #expect(trace.steps[0].kind == .socketRead && trace.steps[0].place == .localSocket && trace.steps[0].bytes == 264)
        #expect(trace.steps[1].kind == .fileSync && trace.steps[1].duration == 300 && trace.steps[1].thread == 42)
        #expect(trace.between(1_000, 2_000).map(\.wall) == [2_000])
    }

    @Test func aCountBeyondTheFileIsCutToWhatWasWritten() throws {
        let path = try traceFile([(1_000, 5, 42, 2, 2, 352)], count: 9)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try StepTrace(path: path).steps.count == 1)
    }

    @Test func anEmptyFileSaysThePreloadWasNotLoaded() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("steps-empty-\(UUID().uuidString)").path
        FileManager.default.createFile(atPath: path, contents: Data())
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: BenchmarkError.self) { try StepTrace(path: path) }
    }

    @Test func eachCallReadIsPairedWithTheReplyWrittenAfterIt() throws {
        let path = try traceFile([
            (1_000_000, 1_000, 5, 1, 1, 100), (1_030_000, 1_000, 5, 2, 1, 800),
            // Another thread, and a network write, are not the service's replies.
            (1_040_000, 1_000, 6, 1, 1, 100), (1_050_000, 1_000, 5, 2, 2, 300),
            (2_000_000, 1_000, 5, 1, 1, 100), (2_045_000, 1_000, 5, 2, 1, 800),
            // A write with no call before it (a signal) is left out.
            (3_000_000, 1_000, 5, 2, 1, 200),
        ])
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(try StepTrace(path: path).callsAnswered(between: 0, 4_000_000, thread: 5) == [30, 45])
    }

    @Test func aCompletionIsSplitAtTheReadTheSyncTheSignalAndThePost() throws {
        let main: Int32 = 7
        let window = [
            Step(wall: 1_200_000, duration: 5_000, thread: main, kind: .socketRead, place: .localSocket, bytes: 264),
            Step(wall: 1_500_000, duration: 250_000, thread: main, kind: .fileSync, place: .regularFile, bytes: 0),
            Step(wall: 1_700_000, duration: 300_000, thread: main, kind: .fileSync, place: .regularFile, bytes: 0),
            Step(wall: 1_800_000, duration: 10_000, thread: main, kind: .socketWrite, place: .localSocket, bytes: 790),
            // The notification thread's write is not the agent's signal.
            Step(wall: 1_850_000, duration: 10_000, thread: 9, kind: .socketWrite, place: .localSocket, bytes: 484),
            Step(wall: 2_300_000, duration: 100_000, thread: main, kind: .socketWrite, place: .networkSocket, bytes: 352),
            Step(wall: 2_400_000, duration: 5_000, thread: main, kind: .socketWrite, place: .localSocket, bytes: 59),
        ]
        let split = try #require(CompletionSteps(window, mainThread: main, sent: 1_000_000, arrival: 2_700_000))
        let values = Dictionary(uniqueKeysWithValues: split.values.map { ($0.0, $0.1) })
        #expect(values[.completeTracedTotal] == 1_700)
        #expect(values[.completeStepRead] == 200)
        #expect(values[.completeStepCommit] == 500)
        #expect(values[.completeStepSync] == 300)
        #expect(values[.completeStepSignal] == 100)
        #expect(values[.completeStepPost] == 400)
        #expect(values[.completeStepArrival] == 500)
    }

    @Test func aCompletionWithoutItsPostIsLeftOut() {
        let window = [
            Step(wall: 1_200_000, duration: 5_000, thread: 7, kind: .socketRead, place: .localSocket, bytes: 264),
            Step(wall: 1_700_000, duration: 300_000, thread: 7, kind: .fileSync, place: .regularFile, bytes: 0),
            Step(wall: 1_800_000, duration: 10_000, thread: 7, kind: .socketWrite, place: .localSocket, bytes: 790),
        ]
        #expect(CompletionSteps(window, mainThread: 7, sent: 1_000_000, arrival: 2_700_000) == nil)
    }
}
