import DFLDBus
import GLibParsing
import SleepTimerCore
import SleepTimersAPI

/// D-Bus values as JSON: dictionaries with string keys as objects (variants
/// unwrapped), arrays as arrays, numbers and booleans as themselves.
enum JSONOutput {
    static func value(_ value: BusValue) -> String {
        switch value.unwrapped {
        case .string(let text), .objectPath(let text), .signature(let text): return JSONValue.quote(text)
        case .boolean(let flag): return flag ? "true" : "false"
        case .byte(let number): return String(number)
        case .int16(let number): return String(number)
        case .uint16(let number): return String(number)
        case .int32(let number): return String(number)
        case .uint32(let number): return String(number)
        case .int64(let number): return String(number)
        case .uint64(let number): return String(number)
        case .double(let number): return number.isFinite ? String(number) : "null"
        case .array(let signature, let elements) where signature.hasPrefix("{s"):
            let members = elements.compactMap { element -> String? in
                guard case .dictEntry(.string(let key), let inner) = element else { return nil }
                return "\(JSONValue.quote(key)):\(Self.value(inner))"
            }
            return "{" + members.joined(separator: ",") + "}"
        case .array(_, let elements): return array(elements)
        case .structure(let fields): return array(fields)
        case .dictEntry(let key, let inner): return array([key, inner])
        case .variant(let inner): return Self.value(inner)
        case .unixFD: return "null"
        }
    }

    static func array(_ elements: [BusValue]) -> String {
        "[" + elements.map(value).joined(separator: ",") + "]"
    }

    /// A value for a "key: value" line: strings without quotes, a list of
    /// strings (AllowedOrigins) as its items separated by ", ".
    static func plain(_ value: BusValue) -> String {
        switch value.unwrapped {
        case .string(let text): return text
        case .array("s", let elements):
            return elements.map { element in
                if case .string(let text) = element { return text }
                return Self.value(element)
            }.joined(separator: ", ")
        default: return Self.value(value)
        }
    }
}

/// One JSON line per signal of the agent, for `dfl-sleepctl watch`.
enum WatchLine {
    static func render(_ message: Message) -> String? {
        guard let member = message.member, let arguments = try? message.arguments() else { return nil }
        var fields: [(String, String)] = [("signal", JSONValue.quote(member))]
        if let signal = SleepTimers1.signals.first(where: { $0.name == member && $0.arguments.count == arguments.count }) {
            // The contract's argument names are the line's fields.
            fields += zip(signal.arguments, arguments).map { ($0.name, JSONOutput.value($1)) }
        } else if member == StandardInterface.Properties.propertiesChanged, arguments.count == 3 {
            fields += [("interface", JSONOutput.value(arguments[0])), ("changed", JSONOutput.value(arguments[1])),
                       ("invalidated", JSONOutput.value(arguments[2]))]
        } else {
            fields.append(("arguments", JSONOutput.array(arguments)))
        }
        return "{" + fields.map { "\(JSONValue.quote($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }
}

/// The human-readable form of `dfl-sleepctl list`.
enum TimerTable {
    static func render(_ timers: [BusValue], timeFormat: TimeFormat, zones: any TimeZoneResolving = GLibTimeZones(path: "/usr/share/zoneinfo"),
                       now: Instant = SystemClock().now()) -> String {
        if timers.isEmpty { return tr("No Sleep timers are mirrored on this desktop.") + "\n" }
        var lines: [String] = []
        for timer in timers {
            var fields: [SleepTimers1.TimerKey: BusValue] = [:]
            for (key, value) in timer.vardictEntries ?? [] {
                if let key = SleepTimers1.TimerKey(rawValue: key) { fields[key] = value }
            }
            let start = Instant(millisecondsSince1970: fields[.startedAt]?.int64Value ?? 0)
            let since: String
            if let zone = fields[.timeZone]?.stringValue.flatMap(TimeZoneName.init), let rules = zones.rules(for: zone) {
                since = DisplayText.runningBody(start: start, now: now, rules: rules, timeFormat: timeFormat)
            } else {
                // TRANSLATORS: dfl-sleepctl list, for a timer whose time zone
                // is unknown here: how long the baby has slept ("1 h 23 min").
                since = tr("Asleep for {elapsed}").filling(["elapsed": DisplayText.elapsed(from: start, to: now)])
            }
            let values = [
                "name": fields[.babyName]?.stringValue ?? "?", "since": since,
                "state": state(fields[.state]?.stringValue ?? "?"),
            ]
            let line = fields[.canComplete]?.booleanValue == true
                // TRANSLATORS: A line of dfl-sleepctl list: {name} is the baby's
                // name, {since} "Asleep since 9:41 PM · 1 h 23 min", {state}
                // where the timer stands ("running").
                ? tr("{name}: {since} [{state}, can complete]").filling(values)
                : tr("{name}: {since} [{state}]").filling(values)
            lines.append(line + "\n  " + (fields[.timerID]?.stringValue ?? "?"))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A timer's state in words; a state this version does not know, as
    /// the agent named it.
    static func state(_ name: String) -> String {
        switch TimerState(rawValue: name) {
        // TRANSLATORS: Where a timer stands, in dfl-sleepctl list.
        case .running: return trc("timer state", "running")
        // TRANSLATORS: Still running, but it can only be finished in the app now.
        case .tokenExpired: return trc("timer state", "token expired")
        // TRANSLATORS: Completed here, being sent to the app's server.
        case .saving: return trc("timer state", "saving")
        case .saveFailed: return trc("timer state", "save failed")
        // TRANSLATORS: It has to be finished in the app.
        case .needsApp: return trc("timer state", "needs the app")
        case nil: return name
        }
    }
}
