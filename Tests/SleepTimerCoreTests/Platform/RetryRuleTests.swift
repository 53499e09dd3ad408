import DFLTestSupport
import Testing
import SleepTimerCore

@Suite struct RetryRuleTests {
    let rule = RetryRule(backoff: Backoff(first: .milliseconds(1000), longest: .milliseconds(60_000)),
                         maximumRetryAfter: .milliseconds(600_000))
    let now = Fixtures.now
    let farExpiry = Fixtures.now.adding(milliseconds: 24 * Milliseconds.hour)

    @Test func theCeilingDoublesAndIsCapped() {
        #expect(rule.backoffCeiling(afterAttempt: 1) == .milliseconds(1000))
        #expect(rule.backoffCeiling(afterAttempt: 2) == .milliseconds(2000))
        #expect(rule.backoffCeiling(afterAttempt: 6) == .milliseconds(32_000))
        #expect(rule.backoffCeiling(afterAttempt: 7) == .milliseconds(60_000))
        #expect(rule.backoffCeiling(afterAttempt: 10_000) == .milliseconds(60_000))
        #expect(rule.backoffCeiling(afterAttempt: 0) == .milliseconds(1000))
    }

    /// Full jitter: every wait lies between zero and the ceiling, and the
    /// waits spread over the whole of that range.
    @Test func fullJitterSpansZeroToTheCeiling() {
        var random = SplitMix64(seed: 42)
        let ceiling = rule.backoffCeiling(afterAttempt: 4).wholeMilliseconds
        var delays: [Int64] = []
        for _ in 0..<2000 {
            guard case .retry(let at) = rule.nextAttempt(
                afterAttempt: 4, now: now, retryAfter: nil, tokenExpiresAt: farExpiry, random: &random)
            else {
                Issue.record("gave up with a far expiry")
                return
            }
            delays.append(at.milliseconds(since: now))
        }
        #expect(delays.allSatisfy { (0...ceiling).contains($0) })
        #expect(delays.min()! < ceiling / 20)
        #expect(delays.max()! > ceiling - ceiling / 20)
    }

    @Test func retryAfterWinsWithinItsBound() {
        var random = SplitMix64(seed: 1)
        #expect(rule.nextAttempt(afterAttempt: 1, now: now, retryAfter: .milliseconds(120_000), tokenExpiresAt: farExpiry, random: &random)
            == .retry(at: now.adding(milliseconds: 120_000)))
        #expect(rule.nextAttempt(afterAttempt: 1, now: now, retryAfter: .milliseconds(86_400_000), tokenExpiresAt: farExpiry, random: &random)
            == .retry(at: now.adding(milliseconds: 600_000)))
        #expect(rule.nextAttempt(afterAttempt: 1, now: now, retryAfter: .milliseconds(-5), tokenExpiresAt: farExpiry, random: &random)
            == .retry(at: now))
    }

    @Test func aRuleThatHonoursNoRetryAfterRetriesAtOnce() {
        let eager = RetryRule(backoff: Backoff(first: .milliseconds(1000), longest: .milliseconds(60_000)), maximumRetryAfter: .zero)
        var random = SplitMix64(seed: 1)
        #expect(eager.nextAttempt(afterAttempt: 1, now: now, retryAfter: .milliseconds(120_000), tokenExpiresAt: farExpiry, random: &random)
            == .retry(at: now))
    }

    @Test func neverRetriesPastTheTokensExpiry() {
        var random = SplitMix64(seed: 7)
        #expect(rule.nextAttempt(afterAttempt: 3, now: now, retryAfter: nil, tokenExpiresAt: now, random: &random)
            == .giveUpTokenExpires)
        #expect(rule.nextAttempt(afterAttempt: 1, now: now, retryAfter: .milliseconds(5000), tokenExpiresAt: now.adding(milliseconds: 5000),
                              random: &random) == .giveUpTokenExpires)
        #expect(rule.nextAttempt(afterAttempt: 1, now: now, retryAfter: .milliseconds(4999), tokenExpiresAt: now.adding(milliseconds: 5000),
                              random: &random) == .retry(at: now.adding(milliseconds: 4999)))
        // A ceiling of 60 s against 30 s left: some draws fit, the rest give up.
        var outcomes: Set<Bool> = []
        for _ in 0..<200 {
            let decision = rule.nextAttempt(
                afterAttempt: 20, now: now, retryAfter: nil, tokenExpiresAt: now.adding(milliseconds: 30_000), random: &random)
            if case .retry(let at) = decision { #expect(at < now.adding(milliseconds: 30_000)) }
            outcomes.insert(decision == .giveUpTokenExpires)
        }
        #expect(outcomes == [true, false])
    }
}

@Suite struct RetryAfterTests {
    /// Sun, 06 Nov 1994 08:49:37 GMT
    let now = Instant(secondsSince1970: 784_111_777 - 60)

    @Test func delaySecondsAreSecondsToTheMillisecond() {
        #expect(RetryAfter.parse("120", now: now) == .milliseconds(120_000))
        #expect(RetryAfter.parse(" 0 ", now: now) == .milliseconds(0))
    }

    @Test func allThreeHTTPDateFormsAreAccepted() {
        #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:49:37 GMT", now: now) == .milliseconds(60_000))
        #expect(RetryAfter.parse("Sunday, 06-Nov-94 08:49:37 GMT", now: now) == .milliseconds(60_000))
        #expect(RetryAfter.parse("Sun Nov  6 08:49:37 1994", now: now) == .milliseconds(60_000))
    }

    @Test func aDateInThePastMeansNoWait() {
        #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:40:00 GMT", now: now) == .milliseconds(0))
    }

    @Test func anEnormousNumberIsNotAnOverflow() {
        let parsed = RetryAfter.parse("99999999999999999999999", now: now)
        #expect(parsed != nil && parsed! > .milliseconds(1_000_000_000))
    }

    @Test func tenDigitsAreSecondsAndMoreAreTheLargestWait() {
        #expect(RetryAfter.parse("9999999999", now: now) == .milliseconds(9_999_999_999_000))
        #expect(RetryAfter.parse("10000000000", now: now) == .milliseconds(Int64.max / 2))
        #expect(RetryAfter.parse(String(repeating: "9", count: 64), now: now) == .milliseconds(Int64.max / 2))
        #expect(RetryAfter.parse(String(repeating: "9", count: 65), now: now) == nil)
    }

    /// RFC 9110: a two-digit year more than 50 years ahead is the most
    /// recent past year with those digits; 2044 is 50 years after 1994.
    @Test func aTwoDigitYearIsWithinFiftyYearsAhead() {
        #expect(RetryAfter.parse("Sunday, 06-Nov-44 08:49:37 GMT", now: now) == .milliseconds(1_577_923_260_000))
        #expect(RetryAfter.parse("Sunday, 06-Nov-45 08:49:37 GMT", now: now) == .milliseconds(0))
    }

    @Test(arguments: [
        "Sunday, 06--Nov-94 08:49:37 GMT", "Sunday, 06-Nov-94-1 08:49:37 GMT", "Sun, 06 Nov 1994 08::49:37 GMT",
        "Sun, 06 Nov 1994 08:60:37 GMT", "Sun, 06 Nov 1994 08:49:61 GMT", "Sun, 06 Nov 1899 08:49:37 GMT",
        "Sun, +6 Nov 1994 08:49:37 GMT",
    ])
    func eachFieldOfADateIsChecked(_ value: String) {
        #expect(RetryAfter.parse(value, now: now) == nil)
    }

    @Test(arguments: [
        "", "soon", "-5", "1.5", "+30", "0x10", "Sun, 06 Nov 1994 08:49:37 PST", "Sun, 6 Nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 25:49:37 GMT", "Sun, 31 Feb 1994 08:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT",
        "06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-1994 08:49:37 GMT", "Sun Nov 6 08:49 1994",
        "Sun, 06 Nov 1994 08:49:37 GMT extra", String(repeating: "9 ", count: 100),
    ])
    func garbageIsIgnored(_ value: String) {
        #expect(RetryAfter.parse(value, now: now) == nil)
    }
}
