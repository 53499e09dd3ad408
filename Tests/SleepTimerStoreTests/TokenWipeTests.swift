import DFLTestSupport
import Foundation
import Glibc
import SleepTimerCore
import Testing
@testable import SleepTimerStore

/// The files under `directory` (the database, its WAL and shared memory,
/// damaged copies) whose bytes contain `needle`.
private func files(under directory: String, containing needle: String) throws -> [String] {
    let bytes = Array(needle.utf8)
    return try FileManager.default.contentsOfDirectory(atPath: directory).sorted().filter { name in
        let data = bytesOfFile("\(directory)/\(name)")
        guard data.count >= bytes.count else { return false }
        return (0...(data.count - bytes.count)).contains { data[$0..<$0 + bytes.count].elementsEqual(bytes) }
    }
}

/// Every byte of the file at `path` (none when it cannot be opened), read
/// with read(2): with this toolchain, FileManager.contents(atPath:) leaves
/// 4 KiB buffers behind that the AddressSanitizer run reports as leaks.
private func bytesOfFile(_ path: String) -> [UInt8] {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return [] }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { return bytes }
        bytes += chunk[0..<count]
    }
}

/// The ways a token leaves the store.
enum Departure: String, CaseIterable, CustomTestStringConvertible {
    case removed, removedWithOthers, reconciled, purged, completed, failed, replaced

    var testDescription: String { rawValue }
}

@Suite struct TokenWipeTests {
    let directory = TemporaryDirectory()
    static let kept = "dflnat_CANARY_kept_9f2c41d07b3e4a5c8d1e"
    static let gone = "dflnat_CANARY_gone_3b8e7a2f5c1d4e6f9a0b"
    static let fresh = "dflnat_CANARY_fresh_6d4a1c9e2b7f3a8e5c0d"

    private func leave(_ store: SleepTimerStore, by departure: Departure) throws {
        let id = Fixtures.timerID(2)
        switch departure {
        case .removed:
            #expect(try store.remove(id))
        case .removedWithOthers:
            #expect(try store.remove([id, Fixtures.timerID(9)]) == [id])
        case .reconciled:
            #expect(try store.reconcile(scope: Fixtures.scope, keeping: [Fixtures.timerID(1)]) == [id])
        case .purged:
            _ = try store.recordCompletion(of: id, completedAt: Fixtures.now, now: Fixtures.now)
            #expect(try store.purge(apiOrigin: Fixtures.apiOrigin, userID: Fixtures.user, familySubjectID: Fixtures.family).timers == [id])
        case .completed:
            _ = try store.recordCompletion(of: id, completedAt: Fixtures.now, now: Fixtures.now)
            #expect(try store.finishCompletion(of: id))
        case .failed:
            _ = try store.recordCompletion(of: id, completedAt: Fixtures.now, now: Fixtures.now)
            #expect(try store.failCompletion(of: id, state: .needsApp, lastError: "token expired") != nil)
        case .replaced:
            #expect(try store.upsert(Fixtures.timer(2, revision: 21, token: Self.fresh)) == .updated)
        }
    }

    /// Another family's timer keeps its token throughout: the search finds
    /// a token that is still there, so its silence about the gone one means
    /// something.
    @Test(arguments: Departure.allCases)
    func aGoneTokenIsInNoFileOfTheStateDirectory(_ departure: Departure) throws {
        let store = try StoreFixtures.open(directory)
        let otherFamily = TimerScope(apiOrigin: Fixtures.apiOrigin, userID: Fixtures.user, familySubjectID: Fixtures.otherFamily)
        _ = try store.upsert(Fixtures.timer(1, scope: departure == .reconciled ? Fixtures.scope : otherFamily, token: Self.kept))
        _ = try store.upsert(Fixtures.timer(2, token: Self.gone))
        for revision in 2...20 { _ = try store.upsert(Fixtures.timer(2, revision: Int64(revision), token: Self.gone)) }
        #expect(try !files(under: directory.stateDirectory, containing: Self.gone).isEmpty)
        try leave(store, by: departure)
        #expect(try files(under: directory.stateDirectory, containing: Self.gone) == [])
        #expect(try !files(under: directory.stateDirectory, containing: Self.kept).isEmpty)
    }

    @Test func theWALIsCutToNothingAfterADeletion() throws {
        let store = try StoreFixtures.open(directory)
        for index in 1...30 { _ = try store.upsert(Fixtures.timer(index)) }
        #expect(try store.remove(Fixtures.timerID(3)))
        let wal = "\(directory.stateDirectory)/\(StoreLocation.fileName)-wal"
        #expect(try FileManager.default.attributesOfItem(atPath: wal)[.size] as? Int == 0)
        #expect(try store.timers().count == 29)
    }

    @Test func aDamagedStoreIsReplacedAndItsCopyWithItsTokensOverwrittenAndDeleted() throws {
        do {
            let store = try StoreFixtures.open(directory)
            _ = try store.upsert(Fixtures.timer(1, token: Self.gone))
            store.close()
        }
        let database = "\(directory.stateDirectory)/\(StoreLocation.fileName)"
        // A damaged header: no longer a database, every page still readable.
        let file = try FileHandle(forUpdating: URL(filePath: database))
        try file.write(contentsOf: Data(repeating: 0x5A, count: 100))
        try file.close()
        #expect(try files(under: directory.stateDirectory, containing: Self.gone) == [StoreLocation.fileName])
        let log = RecordingLog()
        let store = try StoreFixtures.open(directory, log: log)
        #expect(try store.timers().isEmpty)
        #expect(try files(under: directory.stateDirectory, containing: Self.gone) == [])
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.stateDirectory)
        #expect(!names.contains { $0.contains("corrupt") }, "\(names)")
        #expect(log.all.contains { $0.hasPrefix("<4>") && $0.contains("damaged (") })
        #expect(log.all.contains { $0.contains(".corrupt-") && $0.contains("overwritten and deleted") && $0.contains("tokens") })
        #expect(!log.all.joined().contains("CANARY"))
    }

    @Test func aDamagedCopyLeftByAnEarlierStartIsOverwrittenAndDeleted() throws {
        try FileManager.default.createDirectory(atPath: directory.stateDirectory, withIntermediateDirectories: true)
        let leftover = "\(directory.stateDirectory)/\(StoreLocation.fileName).corrupt-1795988460000"
        #expect(FileManager.default.createFile(atPath: leftover, contents: Data("...\(Self.gone)...".utf8)))
        #expect(FileManager.default.createFile(atPath: leftover + "-wal", contents: Data(Self.gone.utf8)))
        let log = RecordingLog()
        _ = try StoreFixtures.open(directory, log: log)
        #expect(!FileManager.default.fileExists(atPath: leftover))
        #expect(!FileManager.default.fileExists(atPath: leftover + "-wal"))
        #expect(log.all.filter { $0.contains("overwritten and deleted") }.count == 2)
    }

    @Test func somethingElseMovedAsideIsLeftAlone() throws {
        let aside = "\(directory.stateDirectory)/\(StoreLocation.fileName).corrupt-1795988460000"
        try FileManager.default.createDirectory(atPath: aside, withIntermediateDirectories: true)
        let target = "\(directory.path)/elsewhere"
        #expect(FileManager.default.createFile(atPath: target, contents: Data("precious".utf8)))
        try FileManager.default.createSymbolicLink(atPath: aside + "-wal", withDestinationPath: target)
        let log = RecordingLog()
        _ = try StoreFixtures.open(directory, log: log)
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: aside, isDirectory: &isDirectory) && isDirectory.boolValue)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "precious")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: aside + "-wal")) == target)
        #expect(!log.all.contains { $0.contains("overwritten and deleted") })
    }
}
