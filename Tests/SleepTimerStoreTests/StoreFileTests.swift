import CDFLSQLite
import Foundation
import Glibc
import DFLTestSupport
import Testing
import SleepTimerCore
@testable import SleepTimerStore

private func mode(_ path: String) -> mode_t? {
    var status = stat()
    return lstat(path, &status) == 0 ? status.st_mode & 0o777 : nil
}

@Suite struct StoreFileTests {
    let directory = TemporaryDirectory()

    @Test func stateSurvivesReopening() throws {
        do {
            let store = try StoreFixtures.open(directory)
            _ = try store.upsert(Fixtures.timer(1))
            _ = try store.recordCompletion(of: Fixtures.timerID(1), completedAt: Fixtures.now, now: Fixtures.now)
        }
        let reopened = try StoreFixtures.open(directory)
        #expect(try reopened.timer(Fixtures.timerID(1))?.state == .saving)
        #expect(try reopened.pendingCompletionCount() == 1)
    }

    @Test func usesWALWithFullSynchronousWrites() throws {
        let store = try StoreFixtures.open(directory)
        _ = try store.upsert(Fixtures.timer(1))
        var database: OpaquePointer?
        #expect(sqlite3_open_v2(store.location.databasePath, &database, SQLITE_OPEN_READONLY, nil) == SQLITE_OK)
        defer { sqlite3_close_v2(database) }
        var statement: OpaquePointer?
        sqlite3_prepare_v2(database, "PRAGMA journal_mode", -1, &statement, nil)
        #expect(sqlite3_step(statement) == SQLITE_ROW)
        #expect(String(cString: sqlite3_column_text(statement, 0)) == "wal")
        sqlite3_finalize(statement)
    }

    @Test func permissionsArePrivateEvenUnderUmaskZero() throws {
        let child = try CrashChild.Running("umask-create", directory: directory.stateDirectory)
        #expect(child.waitFor("created"))
        defer { child.kill() }
        let database = "\(directory.stateDirectory)/\(StoreLocation.fileName)"
        #expect(mode(directory.stateDirectory) == 0o700)
        #expect(mode("\(directory.path)/state") == 0o700)
        #expect(mode(database) == 0o600)
        #expect(mode(database + "-wal") == 0o600)
        #expect(mode(database + "-shm") == 0o600)
    }

    @Test func aLooseExistingDirectoryAndFileAreTightened() throws {
        try FileManager.default.createDirectory(atPath: directory.stateDirectory, withIntermediateDirectories: true)
        chmod(directory.stateDirectory, 0o755)
        let database = "\(directory.stateDirectory)/\(StoreLocation.fileName)"
        #expect(FileManager.default.createFile(atPath: database, contents: nil))
        chmod(database, 0o644)
        _ = try StoreFixtures.open(directory)
        #expect(mode(directory.stateDirectory) == 0o700)
        #expect(mode(database) == 0o600)
    }

    @Test func aSymbolicLinkAtTheDatabasePathIsRefusedAndNotFollowed() throws {
        try FileManager.default.createDirectory(atPath: directory.stateDirectory, withIntermediateDirectories: true)
        let target = "\(directory.path)/elsewhere.sqlite3"
        #expect(FileManager.default.createFile(atPath: target, contents: Data("precious".utf8)))
        let database = "\(directory.stateDirectory)/\(StoreLocation.fileName)"
        try FileManager.default.createSymbolicLink(atPath: database, withDestinationPath: target)
        do {
            _ = try StoreFixtures.open(directory)
            Issue.record("the store opened through a symbolic link")
        } catch {
            #expect(error.code == .unsafeLocation)
            #expect(error.description.contains("symbolic link"))
        }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "precious")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: database)) == target)
    }

    @Test func aSymbolicLinkForTheWALIsRefused() throws {
        try FileManager.default.createDirectory(atPath: directory.stateDirectory, withIntermediateDirectories: true)
        let database = "\(directory.stateDirectory)/\(StoreLocation.fileName)"
        try FileManager.default.createSymbolicLink(atPath: database + "-wal", withDestinationPath: "\(directory.path)/x")
        #expect(throws: StoreError.self) { try StoreFixtures.open(directory) }
    }

    @Test func aSymbolicLinkAsTheStateDirectoryIsRefused() throws {
        let real = "\(directory.path)/real"
        try FileManager.default.createDirectory(atPath: real, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: "\(directory.path)/state", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: directory.stateDirectory, withDestinationPath: real)
        do {
            _ = try StoreFixtures.open(directory)
            Issue.record("the store used a symbolic link as its directory")
        } catch {
            #expect(error.code == .unsafeLocation)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: real).isEmpty)
    }

    @Test func aFileThatIsNotADatabaseIsMovedAsideReplacedAndItsCopyDeleted() throws {
        try FileManager.default.createDirectory(atPath: directory.stateDirectory, withIntermediateDirectories: true)
        let database = "\(directory.stateDirectory)/\(StoreLocation.fileName)"
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        #expect(FileManager.default.createFile(atPath: database, contents: garbage))
        let log = RecordingLog()
        let store = try StoreFixtures.open(directory, log: log)
        #expect(try store.upsert(Fixtures.timer(1)) == .inserted)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.stateDirectory)
        #expect(!names.contains { $0.contains(".corrupt-") }, "\(names)")
        let moved = try #require(log.all.first { $0.hasPrefix("<4>") && $0.contains("damaged") })
        let copy = try #require(moved.split(separator: " ").first { $0.contains(".corrupt-") }).filter { $0 != "," && $0 != ";" }
        #expect(log.all.contains { $0.contains("\(copy) was overwritten and deleted") })
    }

    @Test func aDatabaseWithDamagedPagesIsMovedAside() throws {
        do {
            let store = try StoreFixtures.open(directory)
            for index in 1...200 { _ = try store.upsert(Fixtures.timer(index, name: String(repeating: "n", count: 60))) }
        }
        let database = "\(directory.stateDirectory)/\(StoreLocation.fileName)"
        // Fold the WAL into the file, then scribble over pages 2 and 3 (the
        // first table and index pages after the schema page).
        do {
            var handle: OpaquePointer?
            sqlite3_open(database, &handle)
            sqlite3_exec(handle, "PRAGMA wal_checkpoint(TRUNCATE)", nil, nil, nil)
            sqlite3_close(handle)
        }
        let file = try FileHandle(forUpdating: URL(filePath: database))
        try file.seek(toOffset: 4096)
        try file.write(contentsOf: Data(repeating: 0xA5, count: 8192))
        try file.close()
        let log = RecordingLog()
        let store = try StoreFixtures.open(directory, log: log)
        #expect(try store.timers().isEmpty)
        #expect(log.all.contains { $0.contains("damaged") })
    }

    @Test func aDatabaseFromANewerVersionIsLeftAlone() throws {
        do { _ = try StoreFixtures.open(directory) }
        let database = "\(directory.stateDirectory)/\(StoreLocation.fileName)"
        var handle: OpaquePointer?
        sqlite3_open(database, &handle)
        sqlite3_exec(handle, "PRAGMA user_version = 99", nil, nil, nil)
        sqlite3_close(handle)
        do {
            _ = try StoreFixtures.open(directory)
            Issue.record("a newer schema was opened")
        } catch {
            #expect(error.code == .newerSchema(version: 99))
            #expect(error.description.contains("newer version"))
        }
        let remaining = try FileManager.default.contentsOfDirectory(atPath: directory.stateDirectory)
        #expect(!remaining.contains { $0.contains("corrupt") })
    }

    @Test func noErrorOrLogLineCarriesTheToken() throws {
        let log = RecordingLog()
        let store = try StoreFixtures.open(directory, log: log)
        _ = try store.upsert(Fixtures.timer(1))
        _ = try store.recordCompletion(of: Fixtures.timerID(1), completedAt: Fixtures.now, now: Fixtures.now)
        var errors: [String] = []
        do { _ = try store.recordCompletion(of: Fixtures.timerID(1), completedAt: Fixtures.now, now: Fixtures.now) }
        catch { errors.append(error.description) }
        let record = try #require(try store.completion(of: Fixtures.timerID(1)))
        var dumped = ""
        dump(record, to: &dumped)
        dump(try store.timers(), to: &dumped)
        for text in errors + log.all + [dumped, "\(record)", String(reflecting: record)] {
            #expect(!text.contains("CANARY"))
        }
    }
}

@Suite struct QueryPlanTests {
    /// The sender reads the next few outbox entries on every sweep: with the
    /// whole outbox sorted each time, a long outbox took quadratic time.
    @Test func theDueCompletionsAreReadInIndexOrderWithoutASort() throws {
        let directory = TemporaryDirectory()
        let location = StoreLocation(directory: directory.stateDirectory)
        try location.prepareDirectory()
        _ = try location.prepareDatabaseFile()
        let connection = try SQLiteConnection(path: location.databasePath, flags: SQLITE_OPEN_READWRITE)
        try Schema.migrate(connection, from: 0)
        let plan = try connection.statement("EXPLAIN QUERY PLAN " + SleepTimerStore.dueCompletionsQuery)
        var details: [String] = []
        while try plan.step() { details.append(plan.text(3)) }
        #expect(details.contains { $0.contains("USING INDEX completions_due_in_order") }, "\(details)")
        #expect(!details.contains { $0.contains("TEMP B-TREE") }, "\(details)")
    }
}

@Suite struct MigrationTests {
    /// A database left at each earlier schema version, with a row in every
    /// table that version had, opens at the latest version with its rows.
    @Test(arguments: 0..<Schema.latestVersion)
    func everyEarlierVersionMigrates(from version: Int) throws {
        let directory = TemporaryDirectory()
        let location = StoreLocation(directory: directory.stateDirectory)
        try location.prepareDirectory()
        _ = try location.prepareDatabaseFile()
        do {
            let connection = try SQLiteConnection(path: location.databasePath, flags: SQLITE_OPEN_READWRITE)
            try connection.execute("PRAGMA journal_mode = WAL")
            try Schema.migrate(connection, from: 0, to: version)
            if version >= 1 {
                try connection.execute("""
                    INSERT INTO timers VALUES ('00000000-0000-4000-8000-000000000001', 'https://api.dreamsforlittles.example',
                    '9b2f5c8e-1d4a-4e6b-8c3f-2a7d9e0b1c4f', 'c56a4180-65aa-42ec-a945-5fd21dec0538',
                    '7d444840-9dc0-11d1-b245-5ffdce74fad2', 'Maya', 1795983480000, 'Europe/Berlin', 4, 'dflnat_old_token_0123', 1796031660000)
                    """)
            }
            if version >= 3 {
                try connection.execute("""
                    INSERT INTO notifications (timer_id, notification_id, dismissed_in_state)
                    VALUES ('00000000-0000-4000-8000-000000000001', 12, 'running:4:true')
                    """)
            }
            if version >= 2 {
                try connection.execute("""
                    INSERT INTO completions VALUES ('00000000-0000-4000-8000-000000000001', 'https://api.dreamsforlittles.example',
                    '9b2f5c8e-1d4a-4e6b-8c3f-2a7d9e0b1c4f', 'c56a4180-65aa-42ec-a945-5fd21dec0538', 1795988460000,
                    X'7B7D', 1796031660000, 2, 1795988470000, 'timed out', 'pending')
                    """)
            }
            #expect(try connection.scalarInteger("PRAGMA user_version") == Int64(version))
        }
        let store = try SleepTimerStore(location: location, log: RecordingLog(), clock: ManualClock(Fixtures.now))
        let timers = try store.timers()
        #expect(timers.count == (version >= 1 ? 1 : 0))
        if version >= 1 {
            #expect(timers.first?.timer.revision == 4)
            #expect(timers.first?.state == (version >= 2 ? .saving : .running))
        }
        #expect(try store.pendingCompletionCount() == (version >= 2 ? 1 : 0))
        let notification = try store.notification(for: Fixtures.timerID(1))
        #expect(notification == (version >= 3 ? NotificationRecord(notificationID: 12, dismissedInState: "running:4:true") : nil))
        try store.setNotification(for: Fixtures.timerID(1), NotificationRecord(notificationID: 1, dismissedInState: nil, serverOwner: ":1.2"))
    }
}

@Suite struct CrashTests {
    private func populated() throws -> TemporaryDirectory {
        let directory = TemporaryDirectory()
        #expect(try CrashChild.run("populate", directory: directory.stateDirectory) == 0)
        return directory
    }

    @Test func aKillInsideAPurgeLeavesEveryTimer() throws {
        let directory = try populated()
        let child = try CrashChild.Running("purge-hold", directory: directory.stateDirectory)
        #expect(child.waitFor("in-transaction"))
        child.kill()
        let store = try StoreFixtures.open(directory)
        #expect(try store.timers().count == 20)
        #expect(try store.pendingCompletionCount() == 1)
    }

    @Test func aKillInsideARecordedCompletionLeavesNoCompletion() throws {
        let directory = try populated()
        let child = try CrashChild.Running("complete-hold", directory: directory.stateDirectory)
        #expect(child.waitFor("in-transaction"))
        child.kill()
        let store = try StoreFixtures.open(directory)
        #expect(try store.completion(of: Fixtures.timerID(2)) == nil)
        #expect(try store.timer(Fixtures.timerID(2))?.state == .running)
    }

    /// Killed as the commit begins: the kill lands somewhere in or after
    /// COMMIT, and what is left is all of the purge or none of it.
    @Test(arguments: 1...10)
    func aKillDuringCommitLeavesAllOrNothing(_ run: Int) throws {
        let directory = try populated()
        let purge = try CrashChild.Running("purge-race", directory: directory.stateDirectory)
        #expect(purge.waitFor("committing"))
        purge.kill()
        let store = try StoreFixtures.open(directory)
        let count = try store.timers().count
        #expect(count == 20 || count == 0)
        let pending = try store.pendingCompletionCount()
        #expect((count == 20 && pending == 1) || (count == 0 && pending == 0))
    }

    @Test(arguments: 1...10)
    func aKillWhileFinishingACompletionLeavesBothRowsOrNeither(_ run: Int) throws {
        let directory = try populated()
        let finish = try CrashChild.Running("finish-race", directory: directory.stateDirectory)
        #expect(finish.waitFor("committing"))
        finish.kill()
        let store = try StoreFixtures.open(directory)
        let timer = try store.timer(Fixtures.timerID(1))
        let completion = try store.completion(of: Fixtures.timerID(1))
        #expect((timer != nil) == (completion != nil))
        #expect(try store.timers().count == (timer == nil ? 19 : 20))
    }
}
