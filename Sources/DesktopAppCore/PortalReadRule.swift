/// How a key of the settings portal is read, and what a failed read means.
/// Version 2 of the interface has ReadOne; version 1 (Debian 12's
/// xdg-desktop-portal 1.16) has only Read, whose value comes in a second
/// variant. Each key is asked with ReadOne first, and again with Read where
/// the portal does not know ReadOne. A portal that does not serve a key
/// (NotFound) is no fault; any other failure (no portal, a timeout) is said
/// once, at the first answer, since every key would fail alike.
public enum PortalReadRule {
    /// The portal's methods that read one key.
    public enum Method: Sendable, Equatable {
        /// Version 2's ReadOne, asked first.
        case readOne
        /// Version 1's Read.
        case read
    }

    /// The method a key is asked with first.
    public static let firstMethod = Method.readOne

    /// What the portal's error says, as far as this rule reads it.
    public enum Failure: Sendable, Equatable {
        /// The bus's UnknownMethod: the portal has no such method.
        case unknownMethod
        /// The portal's NotFound: it does not serve this key.
        case notFound
        /// Anything else: no portal, a timeout, a refusal.
        case other
    }

    public enum AfterFailure: Sendable, Equatable {
        /// Ask the key again with this method; its first read is not over.
        case askAgain(Method)
        /// The key has no value from this portal, and that is said in the
        /// log only when `log` (the first answer of the start).
        case unread(log: Bool)
    }

    /// A read of a key with `method` failed with `failure`;
    /// `firstAnswer` when no key's first read had ended before.
    public static func afterFailure(of method: Method, _ failure: Failure, firstAnswer: Bool) -> AfterFailure {
        if method == .readOne && failure == .unknownMethod { return .askAgain(.read) }
        return .unread(log: failure != .notFound && firstAnswer)
    }
}
