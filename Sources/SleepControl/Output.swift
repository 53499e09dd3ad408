import DFLDBus
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
    static func render(_ timers: [BusValue], hourCycle: HourCycle, zones: any TimeZoneResolving = ZoneInfoDirectory(path: "/usr/share/zoneinfo"),
                       now: Instant = SystemClock().now()) -> String {
        if timers.isEmpty { return "No Sleep timers are mirrored on this desktop.\n" }
        var lines: [String] = []
        for timer in timers {
            var fields: [SleepTimers1.TimerKey: BusValue] = [:]
            for (key, value) in timer.vardictEntries ?? [] {
                if let key = SleepTimers1.TimerKey(rawValue: key) { fields[key] = value }
            }
            let name = fields[.babyName]?.stringValue ?? "?"
            let start = Instant(millisecondsSince1970: fields[.startedAt]?.int64Value ?? 0)
            let since: String
            if let zone = fields[.timeZone]?.stringValue.flatMap(TimeZoneName.init), let rules = zones.rules(for: zone) {
                since = DisplayText.runningBody(start: start, now: now, rules: rules, hourCycle: hourCycle)
            } else {
                since = "Asleep for \(DisplayText.elapsed(from: start, to: now))"
            }
            let state = fields[.state]?.stringValue ?? "?"
            let completable = fields[.canComplete]?.booleanValue == true ? ", can complete" : ""
            lines.append("\(name): \(since) [\(state)\(completable)]\n  \(fields[.timerID]?.stringValue ?? "?")")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
