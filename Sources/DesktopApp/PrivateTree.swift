import DesktopAppCore
import Glibc
import StoreLock

/// Makes one of the app's folders private all the way down, as
/// WebsiteStorageRule decides for each entry: the folder itself 0700
/// (`PrivateDirectory`), every entry beneath it without group or other
/// bits, and a symbolic link or another user's entry anywhere beneath it
/// reported rather than followed. Nothing is deleted or moved: a refused
/// folder is left for the person to fix, with what it holds.
enum PrivateTree {
    /// nil when `path` and all beneath it are private now, else why not
    /// (the first refusal, with how many more there were).
    static func prepare(_ path: String, what: String) -> String? {
        do {
            try PrivateDirectory.prepare(path, what: what)
        } catch {
            return error.description
        }
        var refusals: [String] = []
        walk(path, refusals: &refusals, depth: 0)
        guard let first = refusals.first else { return nil }
        let more = refusals.count - 1
        return "In \(what) \(path): \(first)" + (more > 0 ? " (and \(more) more)" : "")
    }

    /// Deeper than WebKit ever nests its folders: a loop of bind mounts
    /// cannot keep the walk going.
    private static let deepest = 32

    private static func walk(_ directory: String, refusals: inout [String], depth: Int) {
        guard let stream = opendir(directory) else {
            refusals.append("cannot read \(directory): \(String(cString: strerror(errno)))")
            return
        }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            let path = directory + "/" + name
            var status = stat()
            guard lstat(path, &status) == 0 else { continue } // gone meanwhile
            let kind: WebsiteStorageRule.Kind
            switch status.st_mode & S_IFMT {
            case S_IFDIR: kind = .directory
            case S_IFREG: kind = .file
            case S_IFLNK: kind = .symbolicLink
            default: kind = .other
            }
            switch WebsiteStorageRule.entry(kind, at: path, ownedByUser: status.st_uid == geteuid(), mode: status.st_mode) {
            case .keep:
                break
            case .tighten(let mode):
                // Not a link (lstat said so), in a folder only this user may change.
                if chmod(path, mode_t(mode)) != 0 {
                    refusals.append("cannot make \(path) private: \(String(cString: strerror(errno)))")
                }
            case .refuse(let why):
                refusals.append(why)
                continue
            }
            if kind == .directory {
                if depth < deepest {
                    walk(path, refusals: &refusals, depth: depth + 1)
                } else {
                    refusals.append("\(path) is nested too deep to check.")
                }
            }
        }
    }
}
