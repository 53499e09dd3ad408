import HTTPClient
import SleepAgent
import SleepTimerCore

/// Sends a recorded completion to the platform: the record's request body,
/// byte for byte, to the origin its token was issued for, and the answer
/// read as a verdict (docs/platform-contract.md). Which completion goes
/// when, and what a verdict leads to, is the completion machine's decision.
public final class PlatformCompletionTransport: CompletionTransport {
    private let http: HTTPClient
    private let clock: any WallClock

    public init(http: HTTPClient, clock: any WallClock) {
        self.http = http
        self.clock = clock
    }

    public func send(_ record: CompletionRecord, answered: @escaping (CompletionVerdict, Duration?) -> Void) {
        guard let body = record.requestBody else { return }
        let sentAt = clock.now()
        body.withRevealedBytes { bytes in
            http.post(origin: record.scope.apiOrigin, path: NativeCompletion.path(for: record.timerID), body: bytes) {
                [clock] result in
                let now = clock.now()
                switch result {
                case .success(let response):
                    // The least the platform's clock can be ahead: a time
                    // corrected by it is never in the platform's future.
                    let offset = response.header("date").flatMap {
                        ClockOffsetEstimate(dateHeader: $0, sentAt: sentAt, receivedAt: now)?.earliest
                    }
                    answered(
                        CompletionReplyRule.verdict(
                            status: response.status, body: response.body, retryAfter: response.header("retry-after"),
                            now: now),
                        offset)
                case .failure(let error):
                    answered(CompletionReplyRule.transportFailure(error.description), nil)
                }
            }
        }
    }
}

@available(*, unavailable, message: "The transport is confined to the main loop's thread, as its HTTP client is.")
extension PlatformCompletionTransport: Sendable {}
