import Glibc

/// A directory only its owner may enter: made with mode 0700 whatever the
/// umask, and an existing one set back to 0700. A folder made earlier with
/// 0755 (a home from an older release, a restored backup, a tool under
/// umask 022) would otherwise let another user read what is written
/// beneath it, whatever mode each file gets. The agent's state directory
/// and the app's website-data and cache folders are made so.
public enum PrivateDirectory {
    /// Why a directory cannot be made private; `description` names it.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public enum Reason: Sendable, Equatable {
            /// A symbolic link, not a directory, or another user's: never
            /// used, never changed.
            case unsafe
            /// A system call failed with this errno.
            case fileSystem(errno: Int32)
        }

        public let reason: Reason
        public let description: String
    }

    /// Makes `path` (an absolute path) and its missing parents, each new one
    /// 0700, and makes sure the last component is a real directory of this
    /// user's with mode 0700. `what` names the directory in the message of a
    /// failure ("the state directory").
    public static func prepare(_ path: String, what: String) throws(Failure) {
        var partial = ""
        for component in path.split(separator: "/") {
            partial += "/\(component)"
            if mkdir(partial, 0o700) != 0 && errno != EEXIST {
                let error = errno
                throw Failure(reason: .fileSystem(errno: error), description: "Cannot create \(what) \(partial): \(describe(error))")
            }
        }
        var status = stat()
        guard lstat(path, &status) == 0 else {
            let error = errno
            throw Failure(reason: .fileSystem(errno: error), description: "Cannot inspect \(what) \(path): \(describe(error))")
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw Failure(reason: .unsafe, description: "\(capitalized(what)) \(path) is a symbolic link or not a directory; refusing to use it.")
        }
        guard status.st_uid == geteuid() else {
            throw Failure(reason: .unsafe, description: "\(capitalized(what)) \(path) belongs to another user; refusing to use it.")
        }
        if status.st_mode & 0o777 != 0o700 && chmod(path, 0o700) != 0 {
            let error = errno
            throw Failure(reason: .fileSystem(errno: error), description: "Cannot make \(what) \(path) private (mode 0700): \(describe(error))")
        }
    }

    private static func capitalized(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst()
    }

    private static func describe(_ error: Int32) -> String {
        String(cString: strerror(error))
    }
}
