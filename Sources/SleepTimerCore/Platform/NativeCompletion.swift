/// The request that completes a Sleep timer natively:
/// `POST {origin}/native/sleep-timers/{id}/complete` with the action token
/// and the moment of the click.
public enum NativeCompletion {
    /// The path of the completion endpoint for a timer. Built from a
    /// canonical UUID only.
    public static func path(for timerID: TimerID) -> String {
        "/native/sleep-timers/\(timerID.string)/complete"
    }

    /// The exact request body. It is built once, when the click is
    /// recorded, and stored: every retry sends these same bytes, because
    /// the platform answers a repeat of an identical body with the original
    /// result and refuses a different body with the same token.
    public static func requestBody(token: ActionToken, completedAt: Instant) -> CompletionRequestBody {
        let json = token.withRevealedValue { value in
            "{\"actionToken\":\(JSONValue.quote(value)),\"completedAt\":\"\(ISO8601.format(completedAt))\"}"
        }
        return CompletionRequestBody(bytes: Array(json.utf8))
    }

    /// The same completion sent with a newer token: only when the platform
    /// refused the earlier one as revoked, so that nothing was created. The
    /// time is kept as it was sent. nil when `body` is not one of ours.
    public static func withToken(_ token: ActionToken, _ body: CompletionRequestBody) -> CompletionRequestBody? {
        body.withRevealedBytes { bytes in
            guard let document = try? JSONParser.parse(bytes, maximumDepth: 2),
                let time = document.objectMembers?.first(where: { $0.0 == "completedAt" })?.1.stringValue,
                let completedAt = ISO8601.parse(time)
            else { return nil }
            return requestBody(token: token, completedAt: completedAt)
        }
    }

    /// The same request with another completion time: only when the
    /// platform refused the time itself, so that nothing was created and
    /// the body may change. nil when `body` is not one of ours.
    public static func retimed(_ body: CompletionRequestBody, completedAt: Instant) -> CompletionRequestBody? {
        body.withRevealedBytes { bytes in
            guard let document = try? JSONParser.parse(bytes, maximumDepth: 2),
                let token = document.objectMembers?.first(where: { $0.0 == "actionToken" })?.1.stringValue
            else { return nil }
            return requestBody(token: ActionToken(unvalidated: token), completedAt: completedAt)
        }
    }
}

/// The bytes of a completion request. They carry the token, so, like the
/// token, they never show in any textual form.
public struct CompletionRequestBody: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable, CustomLeafReflectable
{
    private let bytes: [UInt8]

    /// Wraps bytes read back from the store.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    public var count: Int { bytes.count }
    public var description: String { "CompletionRequestBody(\(bytes.count) bytes, redacted)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }

    public func withRevealedBytes<Result>(_ body: ([UInt8]) throws -> Result) rethrows -> Result {
        try body(bytes)
    }
}

/// UTC timestamps the way the platform writes them:
/// `2026-11-29T21:41:00.000Z`.
public enum ISO8601 {
    public static func format(_ instant: Instant) -> String {
        let milliseconds = instant.millisecondsSince1970
        let days = CivilTime.floorDivide(milliseconds, Milliseconds.day)
        let dayMilliseconds = milliseconds - days * Milliseconds.day
        let date = CivilTime.civilDate(daysSince1970: days)
        func pad(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(date.year, 4))-\(pad(Int64(date.month), 2))-\(pad(Int64(date.day), 2))T"
            + "\(pad(dayMilliseconds / Milliseconds.hour, 2)):\(pad(dayMilliseconds / Milliseconds.minute % 60, 2)):"
            + "\(pad(dayMilliseconds / Milliseconds.second % 60, 2)).\(pad(dayMilliseconds % 1000, 3))Z"
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fff…](Z|±HH:MM)`, the form the platform
    /// sends; fractions beyond milliseconds are cut.
    public static func parse(_ text: String) -> Instant? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.count <= 40, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":")
        else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for index in range {
                guard bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), hour < 24, minute < 60, second < 60,
            (1...CivilTime.daysInMonth(year: year, month: Int(month))).contains(Int(day))
        else { return nil }
        var index = 19
        var fraction: Int64 = 0
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            var scale: Int64 = 100
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                fraction += Int64(bytes[index] - UInt8(ascii: "0")) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        var offset: Int64 = 0
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard bytes.count - index == 6, bytes[index + 3] == UInt8(ascii: ":"),
                let hours = number(index + 1..<index + 3), let minutes = number(index + 4..<index + 6),
                hours < 24, minutes < 60
            else { return nil }
            offset = (hours * 60 + minutes) * Milliseconds.minute * (bytes[index] == UInt8(ascii: "+") ? 1 : -1)
            index += 6
        default:
            return nil
        }
        guard index == bytes.count else { return nil }
        let days = CivilTime.daysSince1970(year: year, month: Int(month), day: Int(day))
        let local = days * Milliseconds.day + hour * Milliseconds.hour + minute * Milliseconds.minute
            + second * Milliseconds.second + fraction
        return Instant(millisecondsSince1970: local - offset)
    }
}
