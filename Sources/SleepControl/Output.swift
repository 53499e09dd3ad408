import DFLDBus
import SleepTimerCore

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

    /// A value for a "key: value" line: strings without quotes.
    static func plain(_ value: BusValue) -> String {
        if case .string(let text) = value.unwrapped { return text }
        return Self.value(value)
    }
}

/// One JSON line per signal of the agent, for `dfl-sleepctl watch`.
enum WatchLine {
    static func render(_ message: Message) -> String? {
        guard let member = message.member, let arguments = try? message.arguments() else { return nil }
        var fields: [(String, String)] = [("signal", JSONValue.quote(member))]
        switch (member, arguments.count) {
        case ("TimerChanged", 1):
            fields.append(("timer", JSONOutput.value(arguments[0])))
        case ("TimerRemoved", 2):
            fields += [("timer_id", JSONOutput.value(arguments[0])), ("reason", JSONOutput.value(arguments[1]))]
        case ("CompletionFinished", 3):
            fields += [("timer_id", JSONOutput.value(arguments[0])), ("outcome", JSONOutput.value(arguments[1])),
                       ("activity_id", JSONOutput.value(arguments[2]))]
        case ("PropertiesChanged", 3):
            fields += [("interface", JSONOutput.value(arguments[0])), ("changed", JSONOutput.value(arguments[1])),
                       ("invalidated", JSONOutput.value(arguments[2]))]
        default:
            fields.append(("arguments", JSONOutput.array(arguments)))
        }
        return "{" + fields.map { "\(JSONValue.quote($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }
}

/// The human-readable form of `dfl-sleepctl list`.
enum TimerTable {
    static func render(_ timers: [BusValue], hourCycle: HourCycle, zones: any TimeZoneResolving = ZoneInfoDirectory(path: "/usr/share/zoneinfo"),
                       now: Instant = SystemClock().now()) -> String {
        if timers.isEmpty { return "No Sleep timers are mirrored on this desktop.\n" }
        var lines: [String] = []
        for timer in timers {
            var fields: [String: BusValue] = [:]
            for (key, value) in timer.vardictEntries ?? [] { fields[key] = value }
            let name = fields["baby_name"]?.stringValue ?? "?"
            let start = Instant(millisecondsSince1970: fields["started_at_ms"]?.int64Value ?? 0)
            let since: String
            if let zone = fields["timezone"]?.stringValue.flatMap(TimeZoneName.init), let rules = zones.rules(for: zone) {
                since = DisplayText.runningBody(start: start, now: now, rules: rules, hourCycle: hourCycle)
            } else {
                since = "Asleep for \(DisplayText.elapsed(from: start, to: now))"
            }
            let state = fields["state"]?.stringValue ?? "?"
            let completable = fields["can_complete"]?.booleanValue == true ? ", can complete" : ""
            lines.append("\(name): \(since) [\(state)\(completable)]\n  \(fields["timer_id"]?.stringValue ?? "?")")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
