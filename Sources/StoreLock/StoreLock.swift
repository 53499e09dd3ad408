import Glibc

/// One agent per store: an exclusive `flock` on a file beside the store,
/// in the state directory. The bus name guards only its own bus, and a user
/// can have several (two logins, a remote session, `dbus-run-session`);
/// the store is one per user. The kernel drops the lock when the holder
/// exits, however it ends, so a crash leaves no stale lock behind; the file
/// holds the holder's pid for the messages.
public final class StoreLock {
    public static let fileName = "sleep-timers.lock"

    /// Open for as long as the agent runs: closing it would release the lock.
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    public enum Outcome {
        case taken(StoreLock)
        /// Another process holds the lock: the pid its file names, if it
        /// wrote one yet.
        case held(by: Int32?)
        /// The lock file cannot be made (a read-only or unsafe state
        /// directory): the store will say why it cannot be used either.
        case failed(String)
    }

    public static func path(inDirectory directory: String) -> String { "\(directory)/\(fileName)" }

    /// The state directory the store and its lock live in:
    /// `$XDG_STATE_HOME/dreamsforlittles`, with XDG's default of
    /// `~/.local/state`; a relative XDG_STATE_HOME is ignored, as the
    /// specification asks. nil when neither is an absolute path.
    public static func stateDirectory(environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return "\(state)/dreamsforlittles"
        }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return "\(home)/.local/state/dreamsforlittles"
    }

    /// Takes the lock in `directory` (which must exist). A lock that is
    /// held is tried again for up to `patienceMilliseconds`: the agent of a
    /// session that has just ended may still be on its way out.
    public static func take(inDirectory directory: String, patienceMilliseconds: Int = 0) -> Outcome {
        let path = path(inDirectory: directory)
        let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0o600)
        guard descriptor >= 0 else { return .failed("Cannot open \(path): \(describe(errno))") }
        var waited = 0
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let error = errno
            if error == EINTR { continue }
            if error == EWOULDBLOCK && waited < patienceMilliseconds {
                usleep(50_000)
                waited += 50
                continue
            }
            let holder = readPID(descriptor)
            close(descriptor)
            if error == EWOULDBLOCK { return .held(by: holder) }
            return .failed("Cannot lock \(path): \(describe(error))")
        }
        let text = Array("\(getpid())\n".utf8)
        if ftruncate(descriptor, 0) != 0 || pwrite(descriptor, text, text.count, 0) != text.count {
            // The lock holds all the same; only the messages lack the pid.
            _ = ftruncate(descriptor, 0)
        }
        return .taken(StoreLock(descriptor: descriptor))
    }

    /// The agent that holds the lock in `directory`, for a client that
    /// must not take it, even for a moment (a starting agent would then
    /// find it held): the pid in the file, when that process is still a
    /// dfl-sleep-agent of this user. The kernel drops the lock at exit but
    /// leaves the pid in the file, hence the check.
    public static func holder(inDirectory directory: String, program: String = "dfl-sleep-agent") -> Int32? {
        let descriptor = open(path(inDirectory: directory), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard let pid = readPID(descriptor) else { return nil }
        let status = ProcessStatus.read(pid: pid)
        return status?.name == program && status?.realUID == getuid() ? pid : nil
    }

    deinit {
        close(descriptor)
    }

    private static func readPID(_ descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = pread(descriptor, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n").first ?? ""
        guard let pid = Int32(text), pid > 0 else { return nil }
        return pid
    }

    static func describe(_ error: Int32) -> String {
        String(cString: strerror(error))
    }
}

/// What /proc/PID/status says of a process: readable by every process,
/// a non-dumpable one's too.
struct ProcessStatus: Equatable {
    let name: String
    let realUID: UInt32

    /// "Name:\tdfl-sleep-agent" and "Uid:\t1000\t1000\t1000\t1000" among its lines.
    static func parse(_ text: String) -> ProcessStatus? {
        var name: String?
        var uid: UInt32?
        for line in text.split(separator: "\n") {
            let fields = line.split(whereSeparator: { $0 == "\t" || $0 == " " })
            guard fields.count >= 2 else { continue }
            if fields[0] == "Name:" { name = String(fields[1]) }
            if fields[0] == "Uid:" { uid = UInt32(fields[1]) }
        }
        guard let name, let uid else { return nil }
        return ProcessStatus(name: name, realUID: uid)
    }

    static func read(pid: Int32) -> ProcessStatus? {
        let descriptor = open("/proc/\(pid)/status", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = Glibc.read(descriptor, &bytes, bytes.count)
        guard count > 0 else { return nil }
        return parse(String(decoding: bytes[..<count], as: UTF8.self))
    }
}

/// Used on one thread at a time; the descriptor is the lock.
@available(*, unavailable)
extension StoreLock: Sendable {}
