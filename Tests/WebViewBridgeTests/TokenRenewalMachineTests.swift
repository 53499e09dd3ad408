import SleepTimerCore
import Testing
@testable import WebViewBridge

@Suite struct TokenRenewalMachineTests {
    let timer = TimerID("3f2504e0-4f89-41d3-9a0c-0305e82c3301")!
    let start = Instant(millisecondsSince1970: 1_795_988_460_000)

    private func at(seconds: Int64) -> Instant { start.adding(milliseconds: seconds * Milliseconds.second) }
    /// The expiry of the first token.
    private var firstExpiry: Instant { at(seconds: 12 * 3600) }

    /// A machine holding a token issued at `start` that lasts 12 hours.
    private func plan() -> TokenRenewalMachine {
        var plan = TokenRenewalMachine()
        plan.issued(timer, at: start, expiresAt: firstExpiry)
        return plan
    }

    @Test func aTimerWhoseTokenItNeverHandedOverIsLeftAlone() {
        var plan = TokenRenewalMachine()
        #expect(plan.expiring(timer, expiresAt: firstExpiry, now: start) == nil)
        #expect(!plan.knows(timer))
    }

    @Test func aTokenExpiringSoonIsRenewedAtOnce() {
        var plan = plan()
        #expect(plan.expiring(timer, expiresAt: firstExpiry, now: at(seconds: 11 * 3600 + 1800)) == .renewNow)
    }

    @Test func oneRenewalOfATimerIsInFlightAtATime() {
        var plan = plan()
        let late = at(seconds: 11 * 3600 + 1800)
        #expect(plan.expiring(timer, expiresAt: firstExpiry, now: late) == .renewNow)
        #expect(plan.expiring(timer, expiresAt: firstExpiry, now: late) == nil)
        plan.issued(timer, at: late, expiresAt: at(seconds: 24 * 3600))
        #expect(plan.settled(timer, now: late) == nil)
        #expect(plan.expiring(timer, expiresAt: at(seconds: 24 * 3600), now: at(seconds: 23 * 3600 + 1800)) == .renewNow)
    }

    @Test func anExpiringThatComesWhileARenewalIsInFlightCountsOnceItIsOver() {
        // The agent announces the renewed token before it answers the Mirror.
        var plan = plan()
        let late = at(seconds: 11 * 3600 + 1800)
        #expect(plan.expiring(timer, expiresAt: firstExpiry, now: late) == .renewNow)
        plan.issued(timer, at: late, expiresAt: late.adding(milliseconds: 40_000))
        #expect(plan.expiring(timer, expiresAt: late.adding(milliseconds: 40_000), now: late) == nil)
        #expect(plan.settled(timer, now: late) == .renewAt(late.adding(milliseconds: 30_000)))
    }

    @Test func aTokenDueTheMomentItArrivesIsRenewedThirtySecondsLaterNotAtOnce() {
        var plan = plan()
        #expect(plan.expiring(timer, expiresAt: firstExpiry, now: at(seconds: 1)) == .renewAt(at(seconds: 30)))
        #expect(plan.expiring(timer, expiresAt: firstExpiry, now: at(seconds: 2)) == nil)
        #expect(plan.due(timer, now: at(seconds: 30)) == .renewNow)
        #expect(plan.due(timer, now: at(seconds: 31)) == nil)
    }

    @Test func aTokenDueExactlyThirtySecondsAfterItsIssueIsRenewedAtOnce() {
        var plan = plan()
        #expect(plan.expiring(timer, expiresAt: firstExpiry, now: at(seconds: 30)) == .renewNow)
    }

    @Test func aPassingFailureIsTriedAgainAfterAGrowingPause() {
        var plan = plan()
        let late = at(seconds: 11 * 3600)
        #expect(plan.expiring(timer, expiresAt: firstExpiry, now: late) == .renewNow)
        #expect(plan.failed(timer, .passing, now: late) == .renewAt(late.adding(milliseconds: 30_000)))
        #expect(plan.due(timer, now: late) == .renewNow)
        #expect(plan.failed(timer, .passing, now: late) == .renewAt(late.adding(milliseconds: 60_000)))
        for _ in 0..<10 {
            _ = plan.due(timer, now: late)
            _ = plan.failed(timer, .passing, now: late)
        }
        #expect(plan.due(timer, now: late) == .renewNow)
        #expect(plan.failed(timer, .passing, now: late) == .renewAt(late.adding(milliseconds: 5 * 60_000)))
    }

    @Test func noRetryIsPlannedPastTheTokensExpiry() {
        var plan = plan()
        let almost = at(seconds: 12 * 3600 - 10)
        #expect(plan.expiring(timer, expiresAt: firstExpiry, now: almost) == .renewNow)
        #expect(plan.failed(timer, .passing, now: almost) == nil)
        // The next expiring token (from the app's next upsert) is renewed again.
        plan.issued(timer, at: almost, expiresAt: at(seconds: 24 * 3600))
        #expect(plan.expiring(timer, expiresAt: at(seconds: 24 * 3600), now: at(seconds: 23 * 3600)) == .renewNow)
    }

    @Test func aLastingFailureForgetsTheTimer() {
        var plan = plan()
        #expect(plan.expiring(timer, expiresAt: firstExpiry, now: at(seconds: 11 * 3600)) == .renewNow)
        #expect(plan.failed(timer, .lasting, now: at(seconds: 11 * 3600)) == nil)
        #expect(!plan.knows(timer))
        #expect(plan.expiring(timer, expiresAt: firstExpiry, now: at(seconds: 11 * 3600 + 60)) == nil)
    }

    @Test func aFreshTokenFromTheAppCancelsAPlannedRenewal() {
        var plan = plan()
        let late = at(seconds: 11 * 3600)
        #expect(plan.expiring(timer, expiresAt: firstExpiry, now: late) == .renewNow)
        #expect(plan.failed(timer, .passing, now: late) == .renewAt(late.adding(milliseconds: 30_000)))
        plan.issued(timer, at: late.adding(milliseconds: 10_000), expiresAt: at(seconds: 23 * 3600))
        #expect(plan.due(timer, now: late.adding(milliseconds: 30_000)) == nil)
    }

    @Test func anExpiringAboutAnOlderTokenChangesNothing() {
        var plan = plan()
        plan.issued(timer, at: at(seconds: 3600), expiresAt: at(seconds: 13 * 3600))
        #expect(plan.expiring(timer, expiresAt: firstExpiry, now: at(seconds: 11 * 3600 + 1800)) == nil)
        #expect(plan.expiring(timer, expiresAt: at(seconds: 13 * 3600), now: at(seconds: 12 * 3600 + 1800)) == .renewNow)
    }

    @Test func aForgottenTimerIsNeitherRenewedNorDue() {
        var plan = plan()
        #expect(plan.expiring(timer, expiresAt: firstExpiry, now: at(seconds: 5)) == .renewAt(at(seconds: 30)))
        plan.timerLeft(timer)
        #expect(plan.due(timer, now: at(seconds: 30)) == nil)
        #expect(plan.expiring(timer, expiresAt: firstExpiry, now: at(seconds: 40)) == nil)
    }

    @Test func theEndOfTheSessionForgetsEveryTimer() {
        var plan = plan()
        let other = TimerID("3f2504e0-4f89-41d3-9a0c-0305e82c3302")!
        plan.issued(other, at: start, expiresAt: firstExpiry)
        #expect(plan.expiring(timer, expiresAt: firstExpiry, now: at(seconds: 5)) == .renewAt(at(seconds: 30)))
        plan.sessionEnded()
        #expect(!plan.knows(timer) && !plan.knows(other))
        #expect(plan.state.timers.isEmpty)
        #expect(plan.due(timer, now: at(seconds: 30)) == nil)
        #expect(plan.expiring(other, expiresAt: firstExpiry, now: at(seconds: 40)) == nil)
    }

    @Test func itsSettingsSetTheLeastIntervalAndThePause() {
        var plan = TokenRenewalMachine(settings: .init(
            minimumInterval: .seconds(90), retryBackoff: Backoff(first: .seconds(10), longest: .seconds(20))))
        plan.issued(timer, at: start, expiresAt: firstExpiry)
        #expect(plan.expiring(timer, expiresAt: firstExpiry, now: at(seconds: 60)) == .renewAt(at(seconds: 90)))
        #expect(plan.due(timer, now: at(seconds: 90)) == .renewNow)
        #expect(plan.failed(timer, .passing, now: at(seconds: 90)) == .renewAt(at(seconds: 100)))
        #expect(plan.state.timers[timer]?.failures == 1)
    }

    // MARK: Which refusals pass

    @Test func aRefusalPassesExactlyWhenACompletionWouldBeRetried() {
        for status in [300, 307, 400, 401, 404, 409, 410, 422, 429, 500, 503, 599, 600] {
            let passing = TokenRenewalMachine.failure(refusedWith: status) == .passing
            #expect(passing == CompletionReplyRule.isWorthRetrying(status: status), "\(status)")
        }
        #expect(TokenRenewalMachine.failure(refusedWith: 503) == .passing)
        #expect(TokenRenewalMachine.failure(refusedWith: 409) == .lasting)
    }

    @Test func aDueWhileTheRenewalIsInFlightStartsNoSecondOne() {
        var plan = plan()
        #expect(plan.expiring(timer, expiresAt: firstExpiry, now: at(seconds: 1)) == .renewAt(at(seconds: 30)))
        #expect(plan.due(timer, now: at(seconds: 30)) == .renewNow)
        // A second alarm for the same moment, the renewal still under way.
        #expect(plan.due(timer, now: at(seconds: 30)) == nil)
        // An expiring meanwhile waits for the renewal to settle.
        let nextExpiry = at(seconds: 71)
        plan.issued(timer, at: at(seconds: 31), expiresAt: nextExpiry)
        #expect(plan.expiring(timer, expiresAt: nextExpiry, now: at(seconds: 31)) == nil)
        #expect(plan.settled(timer, now: at(seconds: 31)) == .renewAt(at(seconds: 61)))
        // That expiring is spent: the next renewal's end asks for nothing more.
        #expect(plan.due(timer, now: at(seconds: 61)) == .renewNow)
        plan.issued(timer, at: at(seconds: 61), expiresAt: at(seconds: 61 + 12 * 3600))
        #expect(plan.settled(timer, now: at(seconds: 61)) == nil)
    }

    @Test func aFailedRenewalForgetsTheExpiringThatCameWhileItWasInFlight() {
        var plan = plan()
        let late = at(seconds: 11 * 3600 + 1800)
        #expect(plan.expiring(timer, expiresAt: firstExpiry, now: late) == .renewNow)
        plan.issued(timer, at: late, expiresAt: late.adding(milliseconds: 40_000))
        #expect(plan.expiring(timer, expiresAt: late.adding(milliseconds: 40_000), now: late) == nil)
        guard case .renewAt(let retry)? = plan.failed(timer, .passing, now: late) else {
            Issue.record("a passing failure is tried again")
            return
        }
        #expect(plan.due(timer, now: retry) == .renewNow)
        plan.issued(timer, at: retry, expiresAt: retry.adding(milliseconds: 12 * 3600 * 1000))
        #expect(plan.settled(timer, now: retry) == nil)
    }
}
