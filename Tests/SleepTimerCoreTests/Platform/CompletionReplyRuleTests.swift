import DFLTestSupport
import Testing
import SleepTimerCore

@Suite struct CompletionReplyRuleTests {
    let now = Fixtures.now

    private func verdict(_ status: Int, _ body: String, retryAfter: String? = nil) -> CompletionVerdict {
        CompletionReplyRule.verdict(status: status, body: Array(body.utf8), retryAfter: retryAfter, now: now)
    }

    private func error(_ code: String) -> String { #"{"error":{"code":"\#(code)","message":"words"}}"# }

    @Test func aRefusedCompletionTimeIsTheClocksNotAPermanentFailure() {
        let future = #"{"error":{"code":"invalid_request","message":"completedAt must not be more than 60 seconds in the future"}}"#
        #expect(verdict(400, future) == .clockRejected(reason: "the platform refused the completion's time (400 invalid_request)"))
        let early = #"{"error":{"code":"invalid_request","message":"completedAt must not be before the timer's startedAt"}}"#
        #expect(verdict(400, early) == .clockRejected(reason: "the platform refused the completion's time (400 invalid_request)"))
        #expect(verdict(400, error("invalid_request")) == .failed(reason: "the platform refused the completion (400 invalid_request)"))
    }

    /// A clock refusal in a body of `size` bytes, padded by a member the
    /// reply does not read.
    private func clockRefusal(size: Int) -> String {
        let head = #"{"error":{"code":"invalid_request","message":"completedAt is in the future"},"pad":""#
        return head + String(repeating: "x", count: size - head.utf8.count - 2) + #""}"#
    }

    @Test func aBodyOfTheLargestSizeReadIsStillRead() {
        let largest = clockRefusal(size: 65536)
        #expect(largest.utf8.count == 65536)
        #expect(verdict(400, largest) == .clockRejected(reason: "the platform refused the completion's time (400 invalid_request)"))
        // One byte more and neither the code nor the message is read.
        #expect(verdict(400, clockRefusal(size: 65537)) == .failed(reason: "the platform refused the completion (400)"))
    }

    @Test func anInvalidRequestWithoutAMessageIsNoClockRefusal() {
        #expect(verdict(400, #"{"error":{"code":"invalid_request"}}"#)
            == .failed(reason: "the platform refused the completion (400 invalid_request)"))
    }

    @Test func anErrorCodeOfEveryAllowedCharacterAndTheLongestLengthIsNamed() {
        #expect(verdict(403, error("z09_x")) == .failed(reason: "the platform refused the completion (403 z09_x)"))
        let longest = String(repeating: "c", count: 64)
        #expect(verdict(403, error(longest)) == .failed(reason: "the platform refused the completion (403 \(longest))"))
        #expect(verdict(403, error(longest + "c")) == .failed(reason: "the platform refused the completion (403)"))
    }

    @Test(arguments: ["with space", "del\u{7F}", String(repeating: "i", count: 129)])
    func anImplausibleActivityIDIsNoSuccess(_ id: String) {
        let body = #"{"activity":{"id":"\#(id)","babyId":"b","type":"sleep"},"timerId":"t"}"#
        guard case .retry(nil, _) = verdict(201, body) else {
            Issue.record("the activity id \(id.debugDescription) was taken")
            return
        }
    }

    @Test func anActivityIDOfPrintableASCIIUpToTheLongestIsTaken() {
        let id = "~!" + String(repeating: "i", count: 126)
        let body = #"{"activity":{"id":"\#(id)","babyId":"b","type":"sleep"},"timerId":"t"}"#
        #expect(verdict(201, body) == .created(activityID: id))
    }

    @Test func aRevokedTokenIsToldApartFromAnInvalidOne() {
        #expect(verdict(401, error("token_revoked")) == .tokenRevoked(reason: "a newer action token replaced this one (401 token_revoked)"))
        #expect(verdict(401, error("invalid_token")) == .needsApp(reason: "the platform no longer accepts the action token (401 invalid_token)"))
    }

    @Test func aBodyGetsANewerTokenAndKeepsItsTime() throws {
        let body = NativeCompletion.requestBody(token: ActionToken(unvalidated: Fixtures.canary), completedAt: now)
        let newer = ActionToken(unvalidated: "dflnat_NEWER_q8Zr2mXv0Lw9sT4kP1nB7cY3uH6eJ5dA")
        #expect(NativeCompletion.withToken(newer, body) == NativeCompletion.requestBody(token: newer, completedAt: now))
    }

    @Test func aBodyGetsANewTimeAndKeepsItsToken() throws {
        let body = NativeCompletion.requestBody(token: ActionToken(unvalidated: Fixtures.canary), completedAt: now)
        let retimed = try #require(NativeCompletion.retimed(body, completedAt: now.adding(milliseconds: -90_000)))
        #expect(retimed == NativeCompletion.requestBody(
            token: ActionToken(unvalidated: Fixtures.canary), completedAt: now.adding(milliseconds: -90_000)))
        #expect(NativeCompletion.retimed(CompletionRequestBody(bytes: Array("nonsense".utf8)), completedAt: now) == nil)
    }

    @Test func createdCarriesTheActivityID() {
        let body = #"{"activity":{"id":"4f1c2d3e-0000-4000-8000-000000000001","babyId":"b","type":"sleep"},"timerId":"t"}"#
        #expect(verdict(201, body) == .created(activityID: "4f1c2d3e-0000-4000-8000-000000000001"))
    }

    @Test func aSuccessThatIsNotTheDocumentedJSONIsRetried() {
        for body in ["<html>oops</html>", "{}", #"{"activity":{"id":""}}"#, ""] {
            guard case .retry(nil, _) = verdict(201, body) else {
                Issue.record("\(body) was not retried")
                continue
            }
        }
    }

    @Test func finishedElsewhereNeedsTheRightCode() {
        #expect(verdict(409, error("already_completed")) == .alreadyCompleted)
        #expect(verdict(404, error("timer_not_found")) == .alreadyCompleted)
        guard case .failed = verdict(404, error("not_found")) else {
            Issue.record("a 404 of an unknown route counted as finished elsewhere")
            return
        }
    }

    @Test func aDeadTokenNeedsTheApp() {
        guard case .needsApp = verdict(401, error("invalid_token")), case .needsApp = verdict(410, error("token_expired"))
        else {
            Issue.record("401/410 did not need the app")
            return
        }
    }

    @Test func badRequestsArePermanent() {
        for (status, code) in [(400, "invalid_request"), (422, "idempotency_mismatch"), (403, "forbidden"), (413, "payload_too_large")] {
            guard case .failed(let reason) = verdict(status, error(code)) else {
                Issue.record("\(status) was not permanent")
                continue
            }
            #expect(reason.contains("\(status) \(code)"))
        }
    }

    @Test func busyAnswersCarryTheirRetryAfter() {
        #expect(verdict(429, error("rate_limited"), retryAfter: "7")
            == .retry(retryAfter: .milliseconds(7000), reason: "the platform is busy (429 rate_limited)"))
        #expect(verdict(503, error("unavailable"), retryAfter: "Sun, 29 Nov 2026 21:42:00 GMT")
            == .retry(retryAfter: .milliseconds(60_000), reason: "the platform is busy (503 unavailable)"))
        #expect(verdict(503, error("unavailable"), retryAfter: "whenever")
            == .retry(retryAfter: nil, reason: "the platform is busy (503 unavailable)"))
    }

    @Test func serverErrorsAndRedirectsAreRetriedWithBackoff() {
        for status in [500, 502, 504, 301, 307] {
            guard case .retry(nil, _) = verdict(status, "") else {
                Issue.record("\(status) was not retried")
                continue
            }
        }
    }

    @Test func reasonsNeverQuoteTheBody() {
        let hostile = #"{"error":{"code":"dflnat_CANARY_xyz with spaces","message":"dflnat_CANARY"}}"#
        for status in [400, 401, 500, 503] {
            let text = "\(verdict(status, hostile))"
            #expect(!text.contains("CANARY"))
        }
    }

    @Test func busyFailingAndRedirectedAnswersAreWorthRetrying() {
        for status in [429, 503, 500, 599, 301, 307] { #expect(CompletionReplyRule.isWorthRetrying(status: status)) }
        for status in [400, 401, 404, 409, 410, 422, 200, 600, 199] { #expect(!CompletionReplyRule.isWorthRetrying(status: status)) }
    }

    @Test func theVerdictRetriesExactlyWhatIsWorthRetrying() {
        for status in [300, 302, 400, 418, 422, 429, 500, 502, 503, 599, 600, 700] {
            let retried: Bool
            if case .retry = verdict(status, error("some_code")) { retried = true } else { retried = false }
            #expect(retried == CompletionReplyRule.isWorthRetrying(status: status), "\(status)")
        }
    }
}
