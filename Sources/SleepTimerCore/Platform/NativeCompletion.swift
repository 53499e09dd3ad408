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
        requestBody(token: token, completedAtText: ISO8601.format(completedAt))
    }

    private static func requestBody(token: ActionToken, completedAtText: String) -> CompletionRequestBody {
        let json = token.withRevealedValue { value in
            "{\"actionToken\":\(JSONValue.quote(value)),\"completedAt\":\(JSONValue.quote(completedAtText))}"
        }
        return CompletionRequestBody(bytes: Array(json.utf8))
    }

    /// The same completion sent with a newer token: only when the platform
    /// refused the earlier one as revoked, so that nothing was created. The
    /// time is kept as it was sent, character for character (so it is not
    /// read, only copied). nil when `body` is not one of ours.
    public static func withToken(_ token: ActionToken, _ body: CompletionRequestBody) -> CompletionRequestBody? {
        body.withRevealedBytes { bytes in
            guard let document = try? JSONParser.parse(bytes, maximumDepth: 2),
                let time = document.objectMembers?.first(where: { $0.0 == "completedAt" })?.1.stringValue
            else { return nil }
            return requestBody(token: token, completedAtText: time)
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
///
/// Written here, in a few lines of arithmetic, rather than by GLib: the
/// core builds the completion request (and stays free of C modules), and
/// g_date_time_format_iso8601 writes microseconds where the platform's form
/// has exactly three digits. Times are read by GLib (GLibISO8601 in
/// GLibParsing); the core reads none.
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
}
