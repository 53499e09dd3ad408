import Glibc
import StoreLock

/// Where the database lives and how its directory and file are made safe
/// before SQLite opens them.
public struct StoreLocation: Sendable, Equatable {
    public let directory: String

    public static let fileName = "sleep-timers.sqlite3"

    public var databasePath: String { "\(directory)/\(Self.fileName)" }

    public init(directory: String) {
        self.directory = directory
    }

    /// The state directory (`StoreLock.stateDirectory`), where the lock is too.
    public static func standard(environment: [String: String]) -> StoreLocation? {
        StoreLock.stateDirectory(environment: environment).map(StoreLocation.init(directory:))
    }

    /// The one-agent lock beside the store, taken before the store is
    /// opened; the directory is made (and checked) first. A held lock is
    /// tried again for up to a second, for an agent that is just ending.
    public func takeLock(patienceMilliseconds: Int = 1_000) -> StoreLock.Outcome {
        do {
            try prepareDirectory()
        } catch {
            return .failed(error.description)
        }
        return StoreLock.take(inDirectory: directory, patienceMilliseconds: patienceMilliseconds)
    }

    /// Creates the directory (and missing parents) with mode 0700 whatever
    /// the umask, and makes sure the last component is a real directory of
    /// this user's, not a symbolic link (`PrivateDirectory`, which the app's
    /// folders use too).
    func prepareDirectory() throws(StoreError) {
        do {
            try PrivateDirectory.prepare(directory, what: "the state directory")
        } catch {
            switch error.reason {
            case .unsafe: throw StoreError(.unsafeLocation, error.description)
            case .fileSystem(let number): throw StoreError(.fileSystem(errno: number), error.description)
            }
        }
    }

    enum FileCondition {
        case ready
        /// There is something at the path that SQLite must not open (not a
        /// regular file, or not readable): it is to be moved aside.
        case unusable(String)
    }

    /// Creates the database file with mode 0600 if it is missing, without
    /// following a symbolic link, and checks an existing one. A symbolic
    /// link at the path, or at the path of its WAL or shared-memory file,
    /// is refused outright: it is never followed and never moved.
    func prepareDatabaseFile() throws(StoreError) -> FileCondition {
        for suffix in ["", "-wal", "-shm"] {
            var status = stat()
            if lstat(databasePath + suffix, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK {
                throw StoreError(.unsafeLocation, "\(databasePath + suffix) is a symbolic link; refusing to open the timer store through it.")
            }
        }
        let descriptor = open(databasePath, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0o600)
        if descriptor < 0 {
            let error = errno
            if error == ELOOP {
                throw StoreError(.unsafeLocation, "\(databasePath) is a symbolic link; refusing to open the timer store through it.")
            }
            if error == EACCES || error == EISDIR || error == ENXIO {
                return .unusable("it cannot be opened (\(Self.describe(error)))")
            }
            throw StoreError(.fileSystem(errno: error), "Cannot open the timer store \(databasePath): \(Self.describe(error))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw StoreError(.fileSystem(errno: errno), "Cannot inspect the timer store \(databasePath): \(Self.describe(errno))")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            return .unusable("it is not a regular file")
        }
        guard status.st_uid == geteuid() else {
            throw StoreError(.unsafeLocation, "The timer store \(databasePath) belongs to another user; refusing to use it.")
        }
        if status.st_mode & 0o777 != 0o600 && fchmod(descriptor, 0o600) != 0 {
            throw StoreError(.fileSystem(errno: errno), "Cannot make the timer store \(databasePath) private (mode 0600): \(Self.describe(errno))")
        }
        return .ready
    }

    /// Moves the database and its WAL and shared-memory files aside under a
    /// new name and returns the new database path: the name is free for a
    /// fresh store at once, and a crash before the copies are overwritten
    /// leaves them where the next start finds them.
    func quarantine(now: Int64) throws(StoreError) -> String {
        var candidate = "\(databasePath).corrupt-\(now)"
        var counter = 1
        var status = stat()
        while lstat(candidate, &status) == 0 {
            counter += 1
            candidate = "\(databasePath).corrupt-\(now)-\(counter)"
        }
        for suffix in ["", "-wal", "-shm"] {
            if rename(databasePath + suffix, candidate + suffix) != 0 && errno != ENOENT {
                throw StoreError(
                    .fileSystem(errno: errno),
                    "Cannot move the damaged timer store \(databasePath + suffix) aside: \(Self.describe(errno))")
            }
        }
        return candidate
    }

    /// The paths of the damaged copies `quarantine` moved aside (their WAL
    /// and shared-memory files among them), oldest name first.
    func damagedCopies() -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        let prefix = "\(Self.fileName).corrupt-"
        var paths: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix(prefix) { paths.append("\(directory)/\(name)") }
        }
        return paths.sorted()
    }

    /// Overwrites a regular file of this user's with zeros, makes that
    /// durable, then deletes it; the same promise secure_delete gives for
    /// the live store. Returns false, touching nothing, for anything else at
    /// the path (a directory, a symbolic link, a file that is gone).
    func overwriteAndDelete(_ path: String) throws(StoreError) -> Bool {
        let descriptor = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid() else {
            return false
        }
        let zeros = [UInt8](repeating: 0, count: 64 * 1024)
        var offset: off_t = 0
        while offset < status.st_size {
            let count = min(zeros.count, Int(status.st_size - offset))
            let written = zeros.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, count, offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                throw StoreError(.fileSystem(errno: errno), "Cannot overwrite the damaged copy \(path): \(Self.describe(errno))")
            }
            offset += off_t(written)
        }
        guard fsync(descriptor) == 0 else {
            throw StoreError(.fileSystem(errno: errno), "Cannot overwrite the damaged copy \(path): \(Self.describe(errno))")
        }
        guard unlink(path) == 0 else {
            throw StoreError(.fileSystem(errno: errno), "Cannot delete the damaged copy \(path): \(Self.describe(errno))")
        }
        return true
    }

    static func describe(_ error: Int32) -> String {
        String(cString: strerror(error))
    }
}
