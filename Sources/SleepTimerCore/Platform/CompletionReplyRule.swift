/// What to do after an attempt to complete a timer natively, decided from
/// the platform's answer alone (docs/platform-contract.md).
public enum CompletionVerdict: Sendable, Equatable {
    /// 201, or the replay of the original 201 after a lost reply: done.
    case created(activityID: String)
    /// 409 already_completed or 404 timer_not_found: the care event was
    /// finished in the app or on another device; nothing more to send.
    case alreadyCompleted
    /// 401 invalid_token or 410 token_expired: the token can no longer
    /// complete the timer; the app has to. Never retried.
    case needsApp(reason: String)
    /// 400, 422 and other refusals: permanent, shown, never retried.
    case failed(reason: String)
    /// 401 token_revoked: a newer token was issued for the timer (a renewal
    /// won a race with the click) and nothing was created; the newer token
    /// may send the same completion.
    case tokenRevoked(reason: String)
    /// 400 invalid_request about completedAt (in the platform's future, or
    /// before the start): the two clocks disagree. Nothing was created, so
    /// the time may be corrected and sent once more.
    case clockRejected(reason: String)
    /// 429 or 503 (with the server's Retry-After, if usable), other 5xx,
    /// redirects, malformed successes, and network failures: try again later.
    case retry(retryAfter: Duration?, reason: String)
}

public enum CompletionReplyRule {
    /// `path` read in the reply's JSON, or nil when it is not there. Of a
    /// name given twice the first counts, as it did for JSONDecoder.
    private static func value(_ body: [UInt8], at path: String...) -> JSONValue? {
        var value = try? JSONParser.parse(body, maximumDepth: JSONParser.decoderDepth)
        for key in path { value = value?.objectMembers?.first { $0.0 == key }?.1 }
        return value
    }

    /// The verdict on an HTTP answer. Reasons name the status and the
    /// platform's error code, never anything else from the body.
    public static func verdict(status: Int, body: [UInt8], retryAfter: String?, now: Instant) -> CompletionVerdict {
        let code = errorCode(body)
        let named = code.map { "\(status) \($0)" } ?? "\(status)"
        switch status {
        case 200, 201:
            guard let id = value(body, at: "activity", "id")?.stringValue, isPlausibleID(id)
            else { return .retry(retryAfter: nil, reason: "the platform's success reply was not the documented JSON") }
            return .created(activityID: id)
        case 409 where code == "already_completed", 404 where code == "timer_not_found":
            return .alreadyCompleted
        case 400 where code == "invalid_request" && mentionsCompletedAt(body):
            return .clockRejected(reason: "the platform refused the completion's time (\(named))")
        case 401 where code == "token_revoked":
            return .tokenRevoked(reason: "a newer action token replaced this one (\(named))")
        case 401, 410:
            return .needsApp(reason: "the platform no longer accepts the action token (\(named))")
        case _ where !isWorthRetrying(status: status):
            return .failed(reason: "the platform refused the completion (\(named))")
        case 429, 503:
            return .retry(retryAfter: retryAfter.flatMap { RetryAfter.parse($0, now: now) },
                          reason: "the platform is busy (\(named))")
        case 300..<400:
            return .retry(retryAfter: nil, reason: "the platform answered with a redirect (\(status)), which is never followed")
        default:
            return .retry(retryAfter: nil, reason: "the platform failed (\(named))")
        }
    }

    /// Whether an answer with this status may succeed when asked again:
    /// the platform was busy (429) or failing (5xx), or redirected, which
    /// is never followed but may pass. Every other status is the platform's
    /// lasting refusal. Both the completion and the token renewal read the
    /// platform's answers by this one rule.
    public static func isWorthRetrying(status: Int) -> Bool {
        status == 429 || (300..<400).contains(status) || (500..<600).contains(status)
    }

    /// A failure before any answer: always worth another try.
    public static func transportFailure(_ description: String) -> CompletionVerdict {
        .retry(retryAfter: nil, reason: "the platform could not be reached: \(description)")
    }

    /// Whether the error's message is about completedAt. Read only for that
    /// word: nothing else of the message is used.
    private static func mentionsCompletedAt(_ body: [UInt8]) -> Bool {
        guard body.count <= 65536, let message = value(body, at: "error", "message")?.stringValue else { return false }
        return message.contains("completedAt")
    }

    private static func errorCode(_ body: [UInt8]) -> String? {
        guard body.count <= 65536, let code = value(body, at: "error", "code")?.stringValue else { return nil }
        let plain = code.utf8.count <= 64 && code.utf8.allSatisfy {
            ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z")) || $0 == UInt8(ascii: "_")
                || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
        }
        return plain ? code : nil
    }

    private static func isPlausibleID(_ id: String) -> Bool {
        (1...128).contains(id.utf8.count) && id.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }
}
