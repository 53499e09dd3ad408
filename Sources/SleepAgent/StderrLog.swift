import EventLoop
import SleepTimerCore

/// Log lines on stderr with journald's `<N>` priority prefixes: under
/// systemd they land in the journal with the right priority; in a terminal
/// they are still readable. Each line is written whole, so lines from
/// different moments never interleave.
public struct StderrLog: LogSink {
    public let threshold: LogPriority

    public init(threshold: LogPriority = .info) {
        self.threshold = threshold
    }

    public func log(_ priority: LogPriority, _ message: String) {
        guard priority <= threshold else { return }
        FileDescriptorOutput.standardError.write(JournalLine.format(priority, message) + "\n")
    }
}
