import AgentWorkflows
import SleepTimerCore
import SleepTimerStore
import SleepTimersAPI

/// A refused call of the D-Bus API: one of the interface's error names and a
/// sentence for a person. Messages never carry a token.
public struct ServiceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The interface's error names (the contract's).
    public typealias Code = SleepTimers1.ErrorName

    public static let namePrefix = SleepTimers1.ErrorName.prefix

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public init(_ rejection: MirrorRejection) {
        code = rejection.code
        message = rejection.message
    }

    /// The completion machine's refusal of a click, in the API's words.
    public init(_ refusal: CompletionRefusal) {
        switch refusal {
        case .unknownTimer:
            self.init(.unknownTimer, "No Sleep timer with this id is mirrored on this desktop.")
        case .invalidTime:
            self.init(.invalidArgument, "completed_at_ms must be 0 (now) or a time in milliseconds since 1970.")
        case .inFuture:
            self.init(.invalidArgument, "completed_at_ms is in the future.")
        case .beforeStart:
            self.init(.invalidArgument, "completed_at_ms is before the timer started.")
        }
    }

    public init(_ error: StoreError) {
        switch error.code {
        case .unknownTimer: code = .unknownTimer
        case .cannotComplete: code = .cannotComplete
        default: code = .storageFailed
        }
        message = error.message
    }

    /// The D-Bus error name.
    public var name: String { code.name }

    public var description: String { message }
}
