/// Whether WebKit may keep the web app's website data (its sign-in among
/// it) and cache on disk this run. Both folders must first be made private
/// (0700, existing ones included): an older 0755 folder would let another
/// user read the family's bearer token from the web app's local storage.
/// A folder that cannot be made so (a symbolic link, another user's, a
/// failed chmod) is left as it is, and the session keeps nothing on disk:
/// the web app works, and asks for a sign-in at each start until the
/// folder is fixed, as the log line says.
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
}
