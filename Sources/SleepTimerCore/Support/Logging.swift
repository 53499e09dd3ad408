/// Syslog priorities, as journald reads them from a `<N>` prefix on each
/// line a service writes to stderr.
public enum LogPriority: Int, Sendable, Comparable {
    case error = 3
    case warning = 4
    case notice = 5
    case info = 6
    case debug = 7

    public static func < (lhs: LogPriority, rhs: LogPriority) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Where log lines go. Messages are built from ids, states and error
/// descriptions, never from a token.
public protocol LogSink: Sendable {
    func log(_ priority: LogPriority, _ message: String)
}

public enum JournalLine {
    /// One line with its priority prefix. Control characters in the message
    /// become spaces, so one message can never forge a second line.
    public static func format(_ priority: LogPriority, _ message: String) -> String {
        var line = "<\(priority.rawValue)>"
        line.reserveCapacity(message.utf8.count + 4)
        for scalar in message.unicodeScalars {
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}" {
                line += " "
            } else {
                line.unicodeScalars.append(scalar)
            }
        }
        return line
    }
}

/// The programs' one logger: lines on stderr with journald's `<N>` priority
/// prefixes, so that under systemd they land in the journal with the right
/// priority and in a terminal they are still readable. A program that
/// shares its stderr with another (the app and its bridge) names itself at
/// the start of each line. Each line is one write, so lines from different
/// moments never interleave, and JournalLine keeps a message to one line.
/// What is logged is built from ids, states and error descriptions, never
/// from a token.
public struct StderrLog: LogSink {
    public let threshold: LogPriority
    let prefix: String

    public init(threshold: LogPriority = .info, program: String? = nil) {
        self.threshold = threshold
        prefix = program.map { $0 + ": " } ?? ""
    }

    public func log(_ priority: LogPriority, _ message: String) {
        if let line = line(priority, message) { System.writeStandardError(line) }
    }

    /// The line `log` writes, or nil below the threshold.
    func line(_ priority: LogPriority, _ message: String) -> String? {
        guard priority <= threshold else { return nil }
        return JournalLine.format(priority, prefix + message) + "\n"
    }
}
