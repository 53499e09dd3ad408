import GLibParsing
import SleepTimerCore

/// A dfl-sleepctl command line, parsed by hand.
public enum Command: Equatable, Sendable {
    case help(topic: String?)
    case list(json: Bool)
    /// `at` in milliseconds since 1970; 0 means now, as in the D-Bus API.
    case complete(timerID: String, at: Int64)
    case open(timerID: String)
    /// The one running Sleep, for a keyboard shortcut that names no timer.
    case completeRunning
    case openRunning
    case watch
    case status(json: Bool)

    /// The commands as --help lists them: the synopsis (names, options and
    /// placeholders as the shell takes them, never translated) and what the
    /// command does.
    static var commands: [(name: String, synopsis: String, summary: String)] {
        [
            // TRANSLATORS: dfl-sleepctl --help, what each command does (a
            // short phrase after the command, in a table).
            ("list", "list [--json]", tr("the mirrored timers")),
            ("complete", "complete TIMER_ID [--at TIME]", tr("save the timer as a finished sleep; TIME is \"now\" (the default), an ISO-8601 time such as 2026-11-29T21:41:00Z, or milliseconds since 1970")),
            ("complete", "complete --running", tr("save the one running Sleep; with none or several, nothing is saved")),
            ("open", "open TIMER_ID", tr("open the app at the timer")),
            ("open", "open --running", tr("open the app at the running Sleep, or at its start page when none or several run")),
            ("watch", "watch", tr("print one JSON line per signal as it arrives")),
            ("status", "status [--json]", tr("the agent's version and counts")),
            ("help", "help [COMMAND]", tr("this text, or one command's")),
        ]
    }

    /// What `help COMMAND` says of each command, below its synopsis.
    static func commandHelp(_ name: String) -> String? {
        switch name {
        case "list": return tr("Prints the mirrored timers; --json prints them as one JSON array.")
        case "complete":
            return tr("Saves the timer as a finished sleep that ended at TIME: \"now\" (the default), an ISO-8601 time with a zone (2026-11-29T21:41:00Z, or with +01:00), or milliseconds since 1970. The agent records it before it answers \"queued\", and sends it as soon as the platform can be reached.")
                + "\n\n"
                + tr("With --running, saves the one running Sleep as ended now, for a keyboard shortcut; its notification says when it is saved. With no running Sleep, or several, nothing is saved and the exit status is 1; with several, the app opens so that you can choose.")
        case "open":
            return tr("Opens the app at the timer's Sleep tracker.") + "\n\n"
                + tr("With --running, opens the app at the one running Sleep, or at its start page when none or several run.")
        case "watch": return tr("Prints one JSON line per signal of the agent as it arrives, until interrupted.")
        case "status":
            return tr("Prints the agent's version, how many timers it mirrors, how many completions wait to be sent, and the notification server.")
        case "help": return ""
        default: return nil
        }
    }

    /// Paragraphs end by column 72; the table of commands, whose text starts
    /// at column 32, by column 80.
    static let paragraphWidth = 72
    static let tableWidth = 80

    /// `dfl-sleepctl --help`, in the reader's language.
    public static var usage: String {
        var lines = [
            // TRANSLATORS: The first line of --help; {synopsis} is the command
            // line as typed ("dfl-sleepctl COMMAND [OPTIONS]").
            tr("Usage: {synopsis}").filling(["synopsis": "dfl-sleepctl COMMAND [OPTIONS]"]), "",
            TextLayout.wrap(tr("Lists and completes the Sleep timers that dfl-sleep-agent mirrors on this desktop, through its D-Bus API on the session bus."), width: paragraphWidth),
            "",
            // TRANSLATORS: The heading of the table of commands in --help.
            tr("Commands:"),
        ]
        for command in commands {
            let column = "  " + command.synopsis + String(repeating: " ", count: max(1, 30 - command.synopsis.count))
            lines.append(column + TextLayout.wrap(command.summary, width: tableWidth, indent: column.count))
        }
        lines += [
            "",
            TextLayout.wrap(tr("Exit status: 0 done, 1 refused by the agent, 64 usage error, 69 the agent cannot be reached."), width: paragraphWidth),
        ]
        return lines.joined(separator: "\n")
    }

    public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// The text `help` prints for a topic; nil for an unknown one.
    public static func helpText(_ topic: String?) -> String? {
        guard let topic else { return usage }
        let synopses = commands.filter { $0.name == topic }.map(\.synopsis)
        guard !synopses.isEmpty, let help = commandHelp(topic) else { return nil }
        let first = synopses.map { tr("Usage: {synopsis}").filling(["synopsis": "dfl-sleepctl " + $0]) }
            .joined(separator: "\n")
        let paragraphs = help.split(separator: "\n\n").map { TextLayout.wrap(String($0), width: paragraphWidth) }
        return help.isEmpty ? first : first + "\n\n" + paragraphs.joined(separator: "\n\n")
    }

    static func isCommand(_ name: String) -> Bool { commands.contains { $0.name == name } }

    public static func parse(_ arguments: [String]) throws(UsageError) -> Command {
        // TRANSLATORS: The errors of dfl-sleepctl's command line, after
        // "dfl-sleepctl: "; keep COMMAND, TIMER_ID and TIME as they are.
        guard let name = arguments.first else { throw UsageError(message: tr("a command is required")) }
        var rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            guard isCommand(name) else { throw UsageError(message: unknownCommand(name)) }
            return .help(topic: name)
        }
        func flag(_ name: String) -> Bool {
            guard let index = rest.firstIndex(of: name) else { return false }
            rest.remove(at: index)
            return true
        }
        func noMore() throws(UsageError) {
            if let extra = rest.first {
                throw UsageError(message: tr("unexpected argument \"{argument}\"").filling(["argument": extra]))
            }
        }
        func timerID() throws(UsageError) -> String {
            guard let id = rest.first, !id.hasPrefix("-") else {
                throw UsageError(message: tr("{command} needs a TIMER_ID").filling(["command": name]))
            }
            rest.removeFirst()
            guard TimerID(id) != nil else {
                throw UsageError(message: tr("TIMER_ID must be a UUID, such as the timer_id that \"dfl-sleepctl list\" shows"))
            }
            return id
        }
        switch name {
        case "help", "--help", "-h":
            guard rest.count <= 1 else { throw UsageError(message: tr("help takes at most one COMMAND")) }
            if let topic = rest.first, !isCommand(topic) { throw UsageError(message: unknownCommand(topic)) }
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
            if flag("--running") {
                try noMore()
                return .openRunning
            }
            let id = try timerID()
            try noMore()
            return .open(timerID: id)
        case "complete":
            if flag("--running") {
                try noMore()
                return .completeRunning
            }
            var at: Int64 = 0
            if let index = rest.firstIndex(of: "--at") {
                guard index + 1 < rest.count else { throw UsageError(message: tr("--at needs a TIME")) }
                at = try parseTime(rest[index + 1])
                rest.removeSubrange(index...index + 1)
            }
            let id = try timerID()
            try noMore()
            return .complete(timerID: id, at: at)
        default:
            throw UsageError(message: unknownCommand(name))
        }
    }

    static func unknownCommand(_ name: String) -> String {
        tr("unknown command \"{command}\"").filling(["command": name])
    }

    static func parseTime(_ text: String) throws(UsageError) -> Int64 {
        if text == "now" { return 0 }
        if !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let milliseconds = Int64(text), milliseconds > 0
        {
            return milliseconds
        }
        if let instant = GLibISO8601.parse(text) { return instant.millisecondsSince1970 }
        throw UsageError(message: tr("TIME must be \"now\", an ISO-8601 time with a zone such as 2026-11-29T21:41:00Z, or milliseconds since 1970"))
    }
}
