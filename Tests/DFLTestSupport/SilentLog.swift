import SleepTimerCore

/// Drops every log line: for code under test whose logging is not the point.
public struct SilentLog: LogSink {
    public init() {}

    public func log(_ priority: LogPriority, _ message: String) {}
}
