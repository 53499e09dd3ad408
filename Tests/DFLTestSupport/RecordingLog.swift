import Synchronization
import SleepTimerCore

/// Keeps every log line, formatted as journald would read it, for
/// assertions about what was (and was not) logged.
public final class RecordingLog: LogSink {
    private let lines = Mutex<[String]>([])

    public init() {}

    public func log(_ priority: LogPriority, _ message: String) {
        lines.withLock { $0.append(JournalLine.format(priority, message)) }
    }

    public var all: [String] { lines.withLock { $0 } }
}
