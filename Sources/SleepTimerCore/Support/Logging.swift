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
