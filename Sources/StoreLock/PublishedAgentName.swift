import Glibc

/// The agent's unique bus name, published in its private state directory,
/// so that the bridge of the same installation can tell its own agent
/// from another program that owns the agent's well-known name (the other
/// installation's agent, the .deb beside the Flatpak, or an impostor on
/// the host): a Flatpak's state directory is its own, and only this user's
/// processes of that installation write there.
///
/// The file holds the bus's id (org.freedesktop.DBus.GetId) and the unique
/// name, one line: a unique name is never given twice by one bus, but a
/// new bus (the next login) counts from the start again, so a file left by
/// an agent that crashed must not match a stranger on the next bus.
public enum PublishedAgentName {
    public static let fileName = "sleep-agent.bus-name"

    /// The longest content read: a bus id (32 hex digits), a space and a
    /// unique name (at most 255 bytes), and room to spare.
    static let largestContent = 512

    public static func path(inDirectory directory: String) -> String { "\(directory)/\(fileName)" }

    /// What the file says; `busID` and `uniqueName` are as the agent wrote them.
    public struct Entry: Sendable, Equatable {
        public let busID: String
        public let uniqueName: String

        public init(busID: String, uniqueName: String) {
            self.busID = busID
            self.uniqueName = uniqueName
        }

        var line: String { "\(busID) \(uniqueName)\n" }

        /// Reads one line of two words; nil for anything else.
        init?(line: String) {
            var text = Substring(line)
            if text.hasSuffix("\n") { text = text.dropLast() }
            let words = text.split(separator: " ", omittingEmptySubsequences: false)
            guard words.count == 2, !words[0].isEmpty, !words[1].isEmpty,
                !text.contains(where: { $0.isNewline || $0 == "\0" })
            else { return nil }
            busID = String(words[0])
            uniqueName = String(words[1])
        }
    }

    /// What reading the file found.
    public enum Reading: Sendable, Equatable {
        case published(Entry)
        /// No file: no agent of this installation is on a bus now (or it
        /// has not published yet).
        case missing
        /// Something is at the path that is not a private file of this
        /// user's with one line in the agent's form; `reason` says what.
        case unusable(reason: String)
    }

    /// Why the file could not be written or removed.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public let errno: Int32
        public let description: String
    }

    /// Writes the entry atomically: a new 0600 file beside the final one,
    /// made durable, then renamed over it. A symbolic link at the final
    /// path is replaced, never followed. `directory` must exist (the
    /// store's lock made it private).
    public static func publish(_ entry: Entry, inDirectory directory: String) throws(Failure) {
        let final = path(inDirectory: directory)
        let temporary = "\(directory)/.\(fileName).\(getpid())"
        _ = unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("Cannot create \(temporary)") }
        let bytes = Array(entry.line.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        if written != bytes.count || fsync(descriptor) != 0 {
            let error = failure("Cannot write \(temporary)")
            close(descriptor)
            _ = unlink(temporary)
            throw error
        }
        close(descriptor)
        guard rename(temporary, final) == 0 else {
            let error = failure("Cannot rename \(temporary) to \(final)")
            _ = unlink(temporary)
            throw error
        }
    }

    /// Removes the file when it still holds `entry`: a clean exit leaves
    /// no name behind, and never removes the name of an agent that came
    /// after.
    public static func withdraw(_ entry: Entry, inDirectory directory: String) throws(Failure) {
        guard read(inDirectory: directory) == .published(entry) else { return }
        guard unlink(path(inDirectory: directory)) == 0 || errno == ENOENT else {
            throw failure("Cannot remove \(path(inDirectory: directory))")
        }
    }

    /// Reads the file without following a symbolic link; only a regular
    /// file of this user's that no one else may write counts.
    public static func read(inDirectory directory: String) -> Reading {
        let path = path(inDirectory: directory)
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            let error = errno
            if error == ENOENT || error == ENOTDIR { return .missing }
            if error == ELOOP { return .unusable(reason: "\(path) is a symbolic link") }
            return .unusable(reason: "\(path) cannot be opened (\(describe(error)))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .unusable(reason: "\(path) cannot be inspected") }
        guard status.st_mode & S_IFMT == S_IFREG else { return .unusable(reason: "\(path) is not a regular file") }
        guard status.st_uid == geteuid() else { return .unusable(reason: "\(path) belongs to another user") }
        guard status.st_mode & 0o022 == 0 else { return .unusable(reason: "\(path) may be written by others") }
        var buffer = [UInt8](repeating: 0, count: largestContent + 1)
        var count = 0
        while count < buffer.count {
            let got = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else { return .unusable(reason: "\(path) cannot be read") }
            if got == 0 { break }
            count += got
        }
        guard count <= largestContent,
            let entry = Entry(line: String(decoding: buffer[..<count], as: UTF8.self))
        else { return .unusable(reason: "\(path) does not hold a bus name in the agent's form") }
        return .published(entry)
    }

    private static func failure(_ what: String) -> Failure {
        let error = errno
        return Failure(errno: error, description: "\(what): \(describe(error))")
    }

    private static func describe(_ error: Int32) -> String {
        String(cString: strerror(error))
    }
}
