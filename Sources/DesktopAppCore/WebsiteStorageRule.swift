/// Whether WebKit may keep the web app's website data (its sign-in among
/// it) and cache on disk this run. Both folders must first be made private
/// (0700, existing ones included): an older 0755 folder would let another
/// user read the family's bearer token from the web app's local storage.
/// A private top folder is not enough: WebKit follows a symbolic link
/// beneath it (a `storage` folder linked elsewhere) and writes the sign-in
/// there, so every entry below is looked at too (`entry(…)`): group and
/// other bits are taken off, and a link or another user's entry refuses the
/// folder. A folder that cannot be made so (a symbolic link, another
/// user's, a failed chmod) is left as it is, nothing in it deleted, and the
/// session keeps nothing on disk: the web app works, and asks for a
/// sign-in at each start until the folder is fixed, as the log line and the
/// window's notice say.
public enum WebsiteStorageRule {
    /// Where the session keeps the website data.
    public enum Storage: Sendable, Equatable {
        /// Both folders are private: website data and cache persist.
        case kept
        /// An ephemeral session, in memory only; why, for the log.
        case inMemory(because: String)

        /// The log line for the decision, if it needs one.
        public var logLine: String? {
            switch self {
            case .kept: return nil
            case .inMemory(let why): return AppLogText.websiteDataInMemory(why)
            }
        }
    }

    /// Where website data is kept, given the outcome of preparing each
    /// folder: nil when it is private, else why it is not.
    public static func storage(websiteDataFailure: String?, cacheFailure: String?) -> Storage {
        let failures = [websiteDataFailure, cacheFailure].compactMap { $0 }
        return failures.isEmpty ? .kept : .inMemory(because: failures.joined(separator: " "))
    }

    /// What an entry found beneath a folder is.
    public enum Kind: Sendable, Equatable {
        case directory
        case file
        case symbolicLink
        /// A socket, a pipe, a device.
        case other
    }

    /// What to do with one entry beneath a folder.
    public enum EntryDecision: Sendable, Equatable {
        /// Private already.
        case keep
        /// Set this mode: the owner's bits, nothing for the group or others.
        case tighten(mode: UInt32)
        /// The folder cannot be used for the sign-in; why, for the log.
        case refuse(because: String)
    }

    /// The decision for the entry at `path` beneath a folder, given its kind,
    /// whether this user owns it, and its permission bits. A link is never
    /// followed or removed (what it points to may be the person's), and
    /// another user's entry is never changed: either refuses the folder.
    public static func entry(_ kind: Kind, at path: String, ownedByUser: Bool, mode: UInt32) -> EntryDecision {
        if kind == .symbolicLink { return .refuse(because: "\(path) is a symbolic link; refusing to write through it.") }
        guard ownedByUser else { return .refuse(because: "\(path) belongs to another user; refusing to use it.") }
        let permissions = mode & 0o7777
        // Set-id and sticky bits go too: nothing beneath needs them.
        let wanted = permissions & 0o700
        return permissions == wanted ? .keep : .tighten(mode: wanted)
    }
}
