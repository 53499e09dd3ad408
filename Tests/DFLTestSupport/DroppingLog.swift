import SleepTimerCore

/// Drops every log line after handing it to a check: a fuzzer traps on a
/// line that holds its canary, so a leak is found even though nothing is
/// kept.
public struct DroppingLog: LogSink {
    private let check: @Sendable (String) -> Void

    public init(checking check: @escaping @Sendable (String) -> Void) {
        self.check = check
    }

    public func log(_ priority: LogPriority, _ message: String) { check(message) }
}
