import Glibc

/// Where the database lives and how its directory and file are made safe
/// before SQLite opens them.
public struct StoreLocation: Sendable, Equatable {
    public let directory: String

    public static let fileName = "sleep-timers.sqlite3"

    public var databasePath: String { "\(directory)/\(Self.fileName)" }

    public init(directory: String) {
        self.directory = directory
    }

    /// `$XDG_STATE_HOME/dreamsforlittles`, with XDG's default of
    /// `~/.local/state`; a relative XDG_STATE_HOME is ignored, as the
    /// specification asks.
    public static func standard(environment: [String: String]) -> StoreLocation? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return StoreLocation(directory: "\(state)/dreamsforlittles")
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return StoreLocation(directory: "\(home)/.local/state/dreamsforlittles")
    }

    /// Creates the directory (and missing parents) with mode 0700 whatever
    /// the umask, and makes sure the last component is a real directory of
    /// this user's, not a symbolic link.
    func prepareDirectory() throws(StoreError) {
        var path = ""
        for component in directory.split(separator: "/") {
            path += "/\(component)"
            if mkdir(path, 0o700) != 0 && errno != EEXIST {
                throw StoreError(.fileSystem(errno: errno), "Cannot create the state directory \(path): \(Self.describe(errno))")
            }
        }
        var status = stat()
        guard lstat(directory, &status) == 0 else {
            throw StoreError(.fileSystem(errno: errno), "Cannot inspect the state directory \(directory): \(Self.describe(errno))")
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw StoreError(.unsafeLocation, "The state directory \(directory) is a symbolic link or not a directory; refusing to use it.")
        }
        guard status.st_uid == geteuid() else {
            throw StoreError(.unsafeLocation, "The state directory \(directory) belongs to another user; refusing to use it.")
        }
        if status.st_mode & 0o777 != 0o700 && chmod(directory, 0o700) != 0 {
            throw StoreError(.fileSystem(errno: errno), "Cannot make the state directory \(directory) private (mode 0700): \(Self.describe(errno))")
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
    /// new name, never deleting them, and returns the new database path.
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

    static func describe(_ error: Int32) -> String {
        String(cString: strerror(error))
    }
}
