import AgentWorkflows
import DFLTestSupport
import SleepTimerCore
import Testing

@Suite struct CompletionFlowTests {
    typealias F = WorkflowFixtures
    let now = F.now

    func flow(maximumInFlight: Int = 4) -> CompletionFlow {
        CompletionFlow(maximumInFlight: maximumInFlight, random: .seeded(7))
    }

    @Test func aDueEntryIsSent() {
        var flow = flow()
        #expect(flow.handle(.outbox([F.record(1)], now: now)) == [.send(F.record(1))])
        #expect(flow.inFlight == [F.id(1)])
        #expect(flow.wakeAt == nil)
    }

    @Test func anEntryNotYetDueSetsTheWakeUp() {
        var flow = flow()
        #expect(flow.handle(.outbox([F.record(1, nextAttemptAt: now.plus(seconds: 8))], now: now)).isEmpty)
        #expect(flow.wakeAt == now.plus(seconds: 8))
    }

    @Test func noMoreThanTheMaximumGoAtOnceAndAFullFlowWaitsForAnAnswer() {
        var flow = flow(maximumInFlight: 2)
        let actions = flow.handle(.outbox([F.record(1), F.record(2), F.record(3)], now: now))
        #expect(actions == [.send(F.record(1)), .send(F.record(2))])
        // The third is due: the next answer starts the next sweep; no
        // wake-up spins while both places are taken.
        #expect(flow.wakeAt == nil)
    }

    @Test func anEntryInFlightIsNotSentTwice() {
        var flow = flow()
        _ = flow.handle(.outbox([F.record(1)], now: now))
        #expect(flow.handle(.outbox([F.record(1), F.record(2)], now: now)) == [.send(F.record(2))])
    }

    @Test func theReadLimitCoversWhatMayGoWhatIsSkippedAndOneMore() {
        var flow = flow(maximumInFlight: 4)
        #expect(flow.readLimit == 5)
        _ = flow.handle(.outbox([F.record(1)], now: now))
        _ = flow.handle(.outcomeNotStored(F.id(2), now: now))
        #expect(flow.readLimit == 7)
    }

    @Test func anExpiredTokenFailsWithoutSendingAndTheOutboxIsReadAgain() {
        var flow = flow()
        let record = F.record(1, tokenExpiresAt: now)
        #expect(flow.handle(.outbox([record], now: now)) == [
            .settle(record, .failed(.failed, reason: "the action token expired before the platform could be reached")),
            .readOutbox,
        ])
        #expect(flow.inFlight.isEmpty)
    }

    @Test func createdSettlesAndFreesThePlace() {
        var flow = flow()
        _ = flow.handle(.outbox([F.record(1)], now: now))
        #expect(flow.handle(.answered(F.record(1), .created(activityID: "act-1"), now: now)) == [
            .settle(F.record(1), .created(activityID: "act-1")), .readOutbox,
        ])
        #expect(flow.inFlight.isEmpty)
    }

    @Test func alreadyCompletedSettlesAsDoneElsewhere() {
        var flow = flow()
        #expect(flow.handle(.answered(F.record(1), .alreadyCompleted, now: now)).first == .settle(F.record(1), .alreadyCompleted))
    }

    @Test func aRefusedTokenNeedsTheApp() {
        var flow = flow()
        #expect(flow.handle(.answered(F.record(1), .needsApp(reason: "401"), now: now)).first
            == .settle(F.record(1), .failed(.needsApp, reason: "401")))
    }

    @Test func aPermanentRefusalFails() {
        var flow = flow()
        #expect(flow.handle(.answered(F.record(1), .failed(reason: "422"), now: now)).first
            == .settle(F.record(1), .failed(.failed, reason: "422")))
    }

    @Test func aPassingFailureIsRetriedWithinTheBackoffCeiling() {
        var flow = flow()
        let actions = flow.handle(.answered(F.record(1, attempts: 2), .retry(retryAfterMilliseconds: nil, reason: "500"), now: now))
        guard case .settle(_, .retry(let attempts, let at, let reason)) = actions.first else {
            Issue.record("expected a retry, got \(actions)")
            return
        }
        #expect(attempts == 3)
        #expect(reason == "500")
        #expect(at >= now && at <= now.adding(RetryPolicy().backoffCeiling(afterAttempt: 3)))
    }

    @Test func retryAfterIsHonoured() {
        var flow = flow()
        #expect(flow.handle(.answered(F.record(1), .retry(retryAfterMilliseconds: 20_000, reason: "429"), now: now)).first
            == .settle(F.record(1), .retry(attempts: 1, at: now.plus(seconds: 20), reason: "429")))
    }

    @Test func noRetryIsScheduledPastTheTokensExpiry() {
        var flow = flow()
        let record = F.record(1, tokenExpiresAt: now.plus(seconds: 10))
        #expect(flow.handle(.answered(record, .retry(retryAfterMilliseconds: 60_000, reason: "503"), now: now)).first
            == .settle(record, .failed(.failed, reason: "503; the action token expires before another attempt")))
    }

    @Test func anOutcomeTheStoreCouldNotTakeIsHeldBackThenSentAgain() {
        var flow = flow()
        _ = flow.handle(.outbox([F.record(1)], now: now))
        _ = flow.handle(.answered(F.record(1), .created(activityID: "a"), now: now))
        #expect(flow.handle(.outcomeNotStored(F.id(1), now: now)).isEmpty)
        #expect(flow.wakeAt == now.adding(milliseconds: flow.storeFailureHold))
        #expect(flow.handle(.outbox([F.record(1)], now: now.plus(seconds: 1))).isEmpty)
        let later = now.adding(milliseconds: flow.storeFailureHold)
        #expect(flow.handle(.outbox([F.record(1)], now: later)) == [.send(F.record(1))])
    }

    @Test func theNetworkComingBackBringsEveryEntryForward() {
        var flow = flow()
        #expect(flow.handle(.networkBack(now: now)) == [.bringPendingForward(to: now), .readOutbox])
    }

    @Test func aRefusedTimeIsCorrectedByThePlatformsClockOnce() {
        var flow = flow()
        _ = flow.handle(.outbox([F.record(1)], now: now))
        #expect(flow.handle(.answered(F.record(1), .clockRejected(reason: "400"), now: now, platformClockOffset: -90_000)) == [
            .resend(F.record(1), body: F.requestBody(completedAt: now.adding(milliseconds: -90_000)), because: .platformClock),
            .readOutbox,
        ])
        #expect(flow.inFlight.isEmpty)
    }

    @Test func aSecondRefusalOfTheTimeIsFinal() {
        var flow = flow()
        let retimed = CompletionRecord(
            timerID: F.id(1), scope: F.scope, completedAt: now, requestBody: F.record(1).requestBody,
            tokenExpiresAt: F.record(1).tokenExpiresAt, attempts: 0, nextAttemptAt: now, lastError: nil, state: .pending,
            retimed: true)
        #expect(flow.handle(.answered(retimed, .clockRejected(reason: "400"), now: now, platformClockOffset: -90_000)).first
            == .settle(retimed, .failed(.failed, reason: "400")))
    }

    @Test func aRefusedTimeWithoutThePlatformsClockCannotBeCorrected() {
        var flow = flow()
        #expect(flow.handle(.answered(F.record(1), .clockRejected(reason: "400"), now: now)).first
            == .settle(F.record(1), .failed(.failed, reason: "400")))
    }

    @Test func aRevokedTokenAsksForTheNewerOne() {
        var flow = flow()
        _ = flow.handle(.outbox([F.record(1)], now: now))
        let newer = ActionToken(unvalidated: "dflnat_NEWER_q8Zr2mXv0Lw9sT4kP1nB7cY3uH6eJ5dA")
        #expect(flow.handle(.answered(
            F.record(1), .tokenRevoked(reason: "401 token_revoked"), now: now, currentToken: newer)) == [
            .resend(F.record(1), body: F.requestBody(token: "dflnat_NEWER_q8Zr2mXv0Lw9sT4kP1nB7cY3uH6eJ5dA"), because: .newerToken),
            .readOutbox,
        ])
    }

    @Test func aRevokedTokenWithoutANewerOneNeedsTheApp() {
        var flow = flow()
        _ = flow.handle(.outbox([F.record(1)], now: now))
        let revoked = CompletionVerdict.tokenRevoked(reason: "401 token_revoked")
        let failed = [CompletionFlow.Action.settle(F.record(1), .failed(.needsApp, reason: "401 token_revoked")), .readOutbox]
        // The timer holds the token that was sent, or none.
        #expect(flow.handle(.answered(
            F.record(1), revoked, now: now, currentToken: ActionToken(unvalidated: Fixtures.canary))) == failed)
        #expect(flow.handle(.answered(F.record(1), revoked, now: now)) == failed)
        #expect(flow.inFlight.isEmpty)
    }

    @Test func aRefusedTimeInABodyThatIsNotOursFails() {
        var flow = flow()
        let foreign = CompletionRecord(
            timerID: F.id(1), scope: F.scope, completedAt: now, requestBody: CompletionRequestBody(bytes: Array("{}".utf8)),
            tokenExpiresAt: F.record(1).tokenExpiresAt, attempts: 0, nextAttemptAt: now, lastError: nil, state: .pending)
        #expect(flow.handle(.answered(foreign, .clockRejected(reason: "400"), now: now, platformClockOffset: -90_000)) == [
            .settle(foreign, .failed(
                .failed, reason: "the platform refused the completion's time, and it could not be corrected")),
            .readOutbox,
        ])
    }

    // MARK: A timer that changed

    @Test func aTimerBeingSavedAndNotInFlightSendsTheOutbox() {
        var flow = flow()
        #expect(flow.handle(.timerChanged(F.timer(1, completion: .pending))) == [.readOutbox])
    }

    @Test func aTimerInFlightOrNotBeingSavedLeavesTheOutbox() {
        var flow = flow()
        #expect(flow.handle(.timerChanged(F.timer(1))).isEmpty)
        _ = flow.handle(.outbox([F.record(1)], now: now))
        #expect(flow.handle(.timerChanged(F.timer(1, completion: .pending))).isEmpty)
    }

    // MARK: "Waiting for the network"

    @Test func onlyTheFirstFailureShowsWaiting() {
        #expect(CompletionSettlement.retry(attempts: 1, at: now, reason: "503").showsWaiting)
        #expect(!CompletionSettlement.retry(attempts: 2, at: now, reason: "503").showsWaiting)
        #expect(!CompletionSettlement.created(activityID: "a").showsWaiting)
        #expect(!CompletionSettlement.failed(.failed, reason: "400").showsWaiting)
    }

    // MARK: A click

    func click(
        _ timer: StoredTimer? = F.timer(1), at milliseconds: Int64 = 0, offset: Int64? = nil, flow: CompletionFlow? = nil
    ) -> [CompletionFlow.Action] {
        var flow = flow ?? self.flow()
        return flow.handle(.clicked(timer, completedAtMilliseconds: milliseconds, now: now, platformClockOffset: offset))
    }

    @Test func aClickWithoutATimeIsRecordedNow() {
        #expect(click() == [.record(F.id(1), completedAt: now, sentAs: now)])
    }

    @Test func aClickOnAnUnknownTimerIsRefused() {
        #expect(click(nil) == [.refuse(.unknownTimer)])
    }

    @Test func aNegativeTimeIsRefused() {
        #expect(click(at: -1) == [.refuse(.invalidTime)])
    }

    @Test func aTimeInTheFutureIsRefusedBeyondTheSkew() {
        let edge = now.adding(milliseconds: CompletionFlow.clockSkew)
        #expect(click(at: edge.millisecondsSince1970) == [.record(F.id(1), completedAt: edge, sentAs: edge)])
        #expect(click(at: edge.millisecondsSince1970 + 1) == [.refuse(.inFuture)])
    }

    @Test func theTimeIsSentInThePlatformsClock() {
        let earlier = now.plus(seconds: -60)
        #expect(click(at: earlier.millisecondsSince1970, offset: 5_000)
            == [.record(F.id(1), completedAt: earlier, sentAs: earlier.plus(seconds: 5))])
    }

    @Test func nowBeforeTheStartByThePlatformsClockIsTheStart() {
        let timer = F.timer(1, startedAt: now.plus(seconds: -10))
        #expect(click(timer, offset: -20_000) == [.record(F.id(1), completedAt: now, sentAs: now.plus(seconds: -10))])
    }

    @Test func aGivenTimeBeforeTheStartIsRefused() {
        let timer = F.timer(1, startedAt: now.plus(seconds: -10))
        #expect(click(timer, at: now.plus(seconds: -20).millisecondsSince1970) == [.refuse(.beforeStart)])
    }
}
