/// Why the store could not do what was asked. Descriptions name files and
/// SQLite's messages, never a stored value.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        /// The state directory or database path is unsafe to use: a symbolic
        /// link, not owned by this user, or not a directory/regular file.
        case unsafeLocation
        /// A system call on the store's files failed.
        case fileSystem(errno: Int32)
        /// The database was written by a newer version of the agent.
        case newerSchema(version: Int)
        /// SQLite refused (disk full, I/O error, …).
        case database(SQLiteError)
        /// No mirrored timer has this id.
        case unknownTimer
        /// The timer cannot be completed: no valid token, or a completion is
        /// already recorded.
        case cannotComplete
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    static func database(_ error: SQLiteError, while action: String) -> StoreError {
        StoreError(.database(error), "The timer store could not \(action): \(error)")
    }

    public var description: String { message }
}
