import Glibc
import SleepTimerCore

/// Fault injection for the crash tests: with DFL_TEST_CRASH_AT naming one of
/// these points, the agent kills itself with SIGKILL when it gets there, as
/// if the machine had lost power at that instant. Unset, nothing happens.
public struct CrashPoints: Sendable {
    public enum Point: String, Sendable, CaseIterable {
        /// Inside the transaction that records a click, before COMMIT.
        case beforeOutboxCommit = "before-outbox-commit"
        /// The click is recorded; the request has not been sent.
        case afterOutboxCommit = "after-outbox-commit"
        /// The platform's answer arrived; the store does not know it yet.
        case afterReply = "after-reply"
        /// Timers left the store; their notifications are still on screen.
        case afterRemovalCommit = "after-removal-commit"
    }

    let armed: Point?

    public init(environment: [String: String]) {
        armed = environment["DFL_TEST_CRASH_AT"].flatMap(Point.init(rawValue:))
    }

    public static let disarmed = CrashPoints(environment: [:])

    public func isArmed(_ point: Point) -> Bool { armed == point }

    public func reach(_ point: Point, log: any LogSink) {
        guard armed == point else { return }
        log.log(.debug, "Crash point \(point.rawValue) reached; killing this process.")
        raise(SIGKILL)
    }
}
