import SleepTimerCore

/// A dfl-sleepctl command line, parsed by hand.
public enum Command: Equatable, Sendable {
    case help(topic: String?)
    case list(json: Bool)
    /// `at` in milliseconds since 1970; 0 means now, as in the D-Bus API.
    case complete(timerID: String, at: Int64)
    case open(timerID: String)
    case watch
    case status(json: Bool)

    public static let usage = """
        Usage: dfl-sleepctl COMMAND [OPTIONS]

        Lists and completes the Sleep timers that dfl-sleep-agent mirrors on
        this desktop, through its D-Bus API on the session bus.

        Commands:
          list [--json]                 the mirrored timers
          complete TIMER_ID [--at TIME] save the timer as a finished sleep; TIME is
                                        "now" (the default), an ISO-8601 time such as
                                        2026-11-29T21:41:00Z, or milliseconds since 1970
          open TIMER_ID                 open the app at the timer
          watch                         print one JSON line per signal as it arrives
          status [--json]               the agent's version and counts
          help [COMMAND]                this text, or one command's

        Exit status: 0 done, 1 refused by the agent, 64 usage error,
        69 the agent cannot be reached.
        """

    static let commandUsage: [String: String] = [
        "list": "Usage: dfl-sleepctl list [--json]\n\nPrints the mirrored timers; --json prints them as one JSON array.",
        "complete": """
            Usage: dfl-sleepctl complete TIMER_ID [--at TIME]

            Saves the timer as a finished sleep that ended at TIME: "now" (the
            default), an ISO-8601 time with a zone (2026-11-29T21:41:00Z, or with
            +01:00), or milliseconds since 1970. The agent records it before it
            answers "queued", and sends it as soon as the platform can be reached.
            """,
        "open": "Usage: dfl-sleepctl open TIMER_ID\n\nOpens the app at the timer's Sleep tracker.",
        "watch": "Usage: dfl-sleepctl watch\n\nPrints one JSON line per signal of the agent as it arrives, until interrupted.",
        "status": "Usage: dfl-sleepctl status [--json]\n\nPrints the agent's version, how many timers it mirrors, how many\ncompletions wait to be sent, and the notification server.",
        "help": "Usage: dfl-sleepctl help [COMMAND]",
    ]

    public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// The text `help` prints for a topic; nil for an unknown one.
    public static func helpText(_ topic: String?) -> String? {
        guard let topic else { return usage }
        return commandUsage[topic]
    }

    public static func parse(_ arguments: [String]) throws(UsageError) -> Command {
        guard let name = arguments.first else { throw UsageError(message: "a command is required") }
        var rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            guard commandUsage[name] != nil else { throw UsageError(message: "unknown command \"\(name)\"") }
            return .help(topic: name)
        }
        func flag(_ name: String) -> Bool {
            guard let index = rest.firstIndex(of: name) else { return false }
            rest.remove(at: index)
            return true
        }
        func noMore() throws(UsageError) {
            if let extra = rest.first { throw UsageError(message: "unexpected argument \"\(extra)\"") }
        }
        func timerID() throws(UsageError) -> String {
            guard let id = rest.first, !id.hasPrefix("-") else { throw UsageError(message: "\(name) needs a TIMER_ID") }
            rest.removeFirst()
            guard TimerID(id) != nil else { throw UsageError(message: "TIMER_ID must be a UUID, such as the timer_id that \"dfl-sleepctl list\" shows") }
            return id
        }
        switch name {
        case "help", "--help", "-h":
            guard rest.count <= 1 else { throw UsageError(message: "help takes at most one COMMAND") }
            if let topic = rest.first, commandUsage[topic] == nil { throw UsageError(message: "unknown command \"\(topic)\"") }
            return .help(topic: rest.first)
        case "list":
            let json = flag("--json")
            try noMore()
            return .list(json: json)
        case "status":
            let json = flag("--json")
            try noMore()
            return .status(json: json)
        case "watch":
            try noMore()
            return .watch
        case "open":
            let id = try timerID()
            try noMore()
            return .open(timerID: id)
        case "complete":
            var at: Int64 = 0
            if let index = rest.firstIndex(of: "--at") {
                guard index + 1 < rest.count else { throw UsageError(message: "--at needs a TIME") }
                at = try parseTime(rest[index + 1])
                rest.removeSubrange(index...index + 1)
            }
            let id = try timerID()
            try noMore()
            return .complete(timerID: id, at: at)
        default:
            throw UsageError(message: "unknown command \"\(name)\"")
        }
    }

    static func parseTime(_ text: String) throws(UsageError) -> Int64 {
        if text == "now" { return 0 }
        if !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let milliseconds = Int64(text), milliseconds > 0
        {
            return milliseconds
        }
        if let instant = ISO8601.parse(text) { return instant.millisecondsSince1970 }
        throw UsageError(message: "TIME must be \"now\", an ISO-8601 time with a zone such as 2026-11-29T21:41:00Z, or milliseconds since 1970")
    }
}
