@testable import AgentWorkflows
import DFLTestSupport
import SleepTimerCore
import SleepTimersAPI
import Testing

@Suite struct CompletionMachineTests {
    typealias F = WorkflowFixtures
    typealias M = CompletionMachine
    let now = F.now

    func machine(maximumInFlight: Int = 4) -> CompletionMachine {
        CompletionMachine(settings: M.Settings(maximumInFlight: maximumInFlight), random: .seeded(7))
    }

    /// A failure as the machine hands it out, told as `failed`.
    func failure(_ record: CompletionRecord, _ state: CompletionState, _ reason: String) -> M.AnsweredAction {
        .fail(record, state, reason: reason, announcing: .failed)
    }

    // MARK: The outbox

    @Test func aDueEntryIsSent() {
        var machine = machine()
        #expect(machine.outbox([F.record(1)], now: now) == [.send(F.record(1))])
        #expect(machine.state.inFlight == [F.id(1)])
        #expect(machine.state.wakeAt == nil)
    }

    @Test func anEntryNotYetDueSetsTheWakeUp() {
        var machine = machine()
        #expect(machine.outbox([F.record(1, nextAttemptAt: now.plus(seconds: 8))], now: now).isEmpty)
        #expect(machine.state.wakeAt == now.plus(seconds: 8))
    }

    @Test func noMoreThanTheMaximumGoAtOnceAndAFullMachineWaitsForAnAnswer() {
        var machine = machine(maximumInFlight: 2)
        let actions = machine.outbox([F.record(1), F.record(2), F.record(3)], now: now)
        #expect(actions == [.send(F.record(1)), .send(F.record(2))])
        // The third is due: the next answer starts the next sweep; no
        // wake-up spins while both places are taken.
        #expect(machine.state.wakeAt == nil)
    }

    @Test func anEntryInFlightIsNotSentTwice() {
        var machine = machine()
        _ = machine.outbox([F.record(1)], now: now)
        #expect(machine.outbox([F.record(1), F.record(2)], now: now) == [.send(F.record(2))])
    }

    @Test func anEntryWithoutABodyIsSkipped() {
        var machine = machine()
        #expect(machine.outbox([F.record(1, body: false), F.record(2)], now: now) == [.send(F.record(2))])
    }

    @Test func theReadLimitCoversWhatMayGoWhatIsSkippedAndOneMore() {
        var machine = machine(maximumInFlight: 4)
        #expect(machine.readLimit == 5)
        _ = machine.outbox([F.record(1)], now: now)
        machine.outcomeNotStored(F.id(2), now: now)
        #expect(machine.readLimit == 7)
    }

    @Test func anExpiredTokenFailsWithoutSendingAndTheOutboxIsReadAgain() {
        var machine = machine()
        let record = F.record(1, tokenExpiresAt: now)
        #expect(machine.outbox([record], now: now) == [
            .fail(record, .failed, reason: "the action token expired before the platform could be reached", announcing: .failed),
            .readOutbox,
        ])
        #expect(machine.state.inFlight.isEmpty)
    }

    // MARK: An answer: how it ends, what is told, why the timer goes

    @Test func createdFinishesAsCompletedWithTheActivityAndTheSleepsLengthAndFreesThePlace() {
        var machine = machine()
        _ = machine.outbox([F.record(1)], now: now)
        // The fixture timer started 83 min 20 s before the click.
        #expect(machine.answered(F.record(1), .created(activityID: "act-1"), now: now, timer: F.timer(1)) == [
            .finish(
                F.record(1), announcing: CompletionAnnouncement(outcome: .created, activityID: "act-1", sleptMinutes: 83),
                removal: .completed),
            .readOutbox,
        ])
        #expect(machine.state.inFlight.isEmpty)
    }

    @Test func aSleepThatStartedAfterTheClickByTheDesktopsClockLastedNoMinutes() {
        var machine = machine()
        let timer = F.timer(1, startedAt: now.plus(seconds: 30))
        #expect(machine.answered(F.record(1), .created(activityID: "a"), now: now, timer: timer).first == .finish(
            F.record(1), announcing: CompletionAnnouncement(outcome: .created, activityID: "a", sleptMinutes: 0),
            removal: .completed))
    }

    @Test func createdForATimerNoLongerHeldHasNoLength() {
        var machine = machine()
        #expect(machine.answered(F.record(1), .created(activityID: "act-1"), now: now).first == .finish(
            F.record(1), announcing: CompletionAnnouncement(outcome: .created, activityID: "act-1"), removal: .completed))
    }

    @Test func alreadyCompletedFinishesAsCompletedElsewhere() {
        var machine = machine()
        #expect(machine.answered(F.record(1), .alreadyCompleted, now: now, timer: F.timer(1)) == [
            .finish(F.record(1), announcing: CompletionAnnouncement(outcome: .alreadyCompleted), removal: .completedElsewhere),
            .readOutbox,
        ])
    }

    @Test func aFailureIsToldAsFailed() {
        #expect(CompletionAnnouncement.failed == CompletionAnnouncement(outcome: .failed, activityID: "", sleptMinutes: nil))
    }

    @Test func aRefusedTokenNeedsTheApp() {
        var machine = machine()
        #expect(machine.answered(F.record(1), .needsApp(reason: "401"), now: now).first
            == failure(F.record(1), .needsApp, "401"))
    }

    @Test func aPermanentRefusalFails() {
        var machine = machine()
        #expect(machine.answered(F.record(1), .failed(reason: "422"), now: now)
            == [failure(F.record(1), .failed, "422"), .readOutbox])
    }

    @Test func aPassingFailureIsRetriedWithinTheBackoffCeiling() {
        var machine = machine()
        let actions = machine.answered(F.record(1, attempts: 2), .retry(retryAfter: nil, reason: "500"), now: now)
        guard case .retry(_, let attempts, let at, let reason, let showsWaiting) = actions.first else {
            Issue.record("expected a retry, got \(actions)")
            return
        }
        #expect(attempts == 3)
        #expect(reason == "500")
        #expect(!showsWaiting)
        #expect(at >= now && at <= now.adding(RetryRule().backoffCeiling(afterAttempt: 3)))
        #expect(actions.last == .readOutbox)
    }

    @Test func retryAfterIsHonoured() {
        var machine = machine()
        #expect(machine.answered(F.record(1), .retry(retryAfter: .milliseconds(20_000), reason: "429"), now: now).first
            == .retry(F.record(1), attempts: 1, at: now.plus(seconds: 20), reason: "429", showsWaiting: true))
    }

    @Test func onlyTheFirstFailureShowsWaiting() {
        var machine = machine()
        let first = machine.answered(F.record(1), .retry(retryAfter: .milliseconds(1_000), reason: "503"), now: now)
        let second = machine.answered(F.record(1, attempts: 1), .retry(retryAfter: .milliseconds(1_000), reason: "503"), now: now)
        #expect(first.first == .retry(F.record(1), attempts: 1, at: now.plus(seconds: 1), reason: "503", showsWaiting: true))
        #expect(second.first == .retry(
            F.record(1, attempts: 1), attempts: 2, at: now.plus(seconds: 1), reason: "503", showsWaiting: false))
    }

    @Test func noRetryIsScheduledPastTheTokensExpiry() {
        var machine = machine()
        let record = F.record(1, tokenExpiresAt: now.plus(seconds: 10))
        #expect(machine.answered(record, .retry(retryAfter: .milliseconds(60_000), reason: "503"), now: now).first
            == failure(record, .failed, "503; the action token expires before another attempt"))
    }

    @Test func anOutcomeTheStoreCouldNotTakeIsHeldBackThenSentAgain() {
        var machine = machine()
        _ = machine.outbox([F.record(1)], now: now)
        _ = machine.answered(F.record(1), .created(activityID: "a"), now: now)
        machine.outcomeNotStored(F.id(1), now: now)
        let hold = now.adding(machine.settings.storeFailureHold)
        #expect(machine.state.wakeAt == hold)
        #expect(machine.state.heldUntil == [F.id(1): hold])
        #expect(machine.outbox([F.record(1)], now: now.plus(seconds: 1)).isEmpty)
        #expect(machine.outbox([F.record(1)], now: hold) == [.send(F.record(1))])
        #expect(machine.state.heldUntil.isEmpty)
    }

    @Test func theHoldIsThirtySeconds() {
        #expect(M.Settings().storeFailureHold == .seconds(30))
        #expect(M.Settings().storeFailureHold == StoreFailure.hold)
    }

    @Test func anEarlierWakeUpIsKeptWhenAnEntryIsHeld() {
        var machine = machine()
        _ = machine.outbox([F.record(1, nextAttemptAt: now.plus(seconds: 8))], now: now)
        machine.outcomeNotStored(F.id(2), now: now)
        #expect(machine.state.wakeAt == now.plus(seconds: 8))
    }

    @Test func theNetworkComingBackBringsEveryEntryForward() {
        let machine = machine()
        #expect(machine.networkBack(now: now) == [.bringPendingForward(to: now), .readOutbox])
    }

    @Test func aRefusedTimeIsCorrectedByThePlatformsClockOnce() {
        var machine = machine()
        _ = machine.outbox([F.record(1)], now: now)
        #expect(machine.answered(F.record(1), .clockRejected(reason: "400"), now: now, platformClockOffset: .milliseconds(-90_000)) == [
            .resend(F.record(1), body: F.requestBody(completedAt: now.adding(milliseconds: -90_000)), because: .platformClock),
            .readOutbox,
        ])
        #expect(machine.state.inFlight.isEmpty)
    }

    @Test func aSecondRefusalOfTheTimeIsFinal() {
        var machine = machine()
        let retimed = CompletionRecord(
            timerID: F.id(1), scope: F.scope, completedAt: now, requestBody: F.record(1).requestBody,
            tokenExpiresAt: F.record(1).tokenExpiresAt, attempts: 0, nextAttemptAt: now, lastError: nil, state: .pending,
            retimed: true)
        #expect(machine.answered(retimed, .clockRejected(reason: "400"), now: now, platformClockOffset: .milliseconds(-90_000)).first
            == failure(retimed, .failed, "400"))
    }

    @Test func aRefusedTimeWithoutThePlatformsClockCannotBeCorrected() {
        var machine = machine()
        #expect(machine.answered(F.record(1), .clockRejected(reason: "400"), now: now).first
            == failure(F.record(1), .failed, "400"))
    }

    @Test func aRevokedTokenAsksForTheNewerOne() {
        var machine = machine()
        _ = machine.outbox([F.record(1)], now: now)
        let newer = "dflnat_NEWER_q8Zr2mXv0Lw9sT4kP1nB7cY3uH6eJ5dA"
        #expect(machine.answered(
            F.record(1), .tokenRevoked(reason: "401 token_revoked"), now: now, timer: F.timer(1, tokenValue: newer)) == [
            .resend(F.record(1), body: F.requestBody(token: newer), because: .newerToken),
            .readOutbox,
        ])
    }

    @Test func aRevokedTokenWithoutANewerOneNeedsTheApp() {
        var machine = machine()
        _ = machine.outbox([F.record(1)], now: now)
        let revoked = CompletionVerdict.tokenRevoked(reason: "401 token_revoked")
        let failed = [failure(F.record(1), .needsApp, "401 token_revoked"), .readOutbox]
        // The timer holds the token that was sent, or none, or is gone.
        #expect(machine.answered(F.record(1), revoked, now: now, timer: F.timer(1)) == failed)
        #expect(machine.answered(F.record(1), revoked, now: now, timer: F.timer(1, token: false)) == failed)
        #expect(machine.answered(F.record(1), revoked, now: now) == failed)
        #expect(machine.state.inFlight.isEmpty)
    }

    @Test func aRefusedTimeInABodyThatIsNotOursFails() {
        var machine = machine()
        let foreign = CompletionRecord(
            timerID: F.id(1), scope: F.scope, completedAt: now, requestBody: CompletionRequestBody(bytes: Array("{}".utf8)),
            tokenExpiresAt: F.record(1).tokenExpiresAt, attempts: 0, nextAttemptAt: now, lastError: nil, state: .pending)
        #expect(machine.answered(foreign, .clockRejected(reason: "400"), now: now, platformClockOffset: .milliseconds(-90_000)) == [
            failure(foreign, .failed, "the platform refused the completion's time, and it could not be corrected"),
            .readOutbox,
        ])
    }

    // MARK: A click, recorded

    @Test func aRecordedClickIsSentAtOnceWithoutReadingTheOutbox() {
        var machine = machine()
        #expect(machine.recorded(F.record(1), now: now) == .send(F.record(1)))
        #expect(machine.state.inFlight == [F.id(1)])
        // Not sent twice by the next sweep.
        #expect(machine.outbox([F.record(1)], now: now).isEmpty)
    }

    @Test func aRecordedClickWaitsInTheOutboxWhileEveryPlaceIsTaken() {
        var machine = machine(maximumInFlight: 1)
        _ = machine.outbox([F.record(2)], now: now)
        #expect(machine.recorded(F.record(1), now: now) == .readOutbox)
        #expect(machine.state.inFlight == [F.id(2)])
        // The answer frees the place and reads the outbox, which sends it.
        #expect(machine.answered(F.record(2), .created(activityID: "a"), now: now).last == .readOutbox)
        #expect(machine.outbox([F.record(1)], now: now) == [.send(F.record(1))])
    }

    @Test func aRecordThatCannotGoAtOnceIsLeftToTheOutbox() {
        var held = machine()
        held.outcomeNotStored(F.id(1), now: now)
        #expect(held.recorded(F.record(1), now: now) == .readOutbox)
        var machine = machine()
        #expect(machine.recorded(F.record(1, nextAttemptAt: now.plus(seconds: 1)), now: now) == .readOutbox)
        #expect(machine.recorded(F.record(1, tokenExpiresAt: now), now: now) == .readOutbox)
        #expect(machine.recorded(F.record(1, body: false), now: now) == .readOutbox)
        #expect(machine.state.inFlight.isEmpty)
    }

    // MARK: A click

    func click(
        _ timer: StoredTimer? = F.timer(1), at milliseconds: Int64 = 0, offset: Duration? = nil
    ) -> M.ClickedAction {
        // The time as the bus call gives it, read as the bus edge reads it.
        var machine = machine()
        if let offset, let timer { machine.platformClockMeasured(offset, for: timer.timer.scope.apiOrigin) }
        do throws(CompletionRefusal) {
            let completedAt = try M.completedAt(busMilliseconds: milliseconds)
            return machine.clicked(timer, completedAt: completedAt, now: now)
        } catch {
            return .refuse(error)
        }
    }

    @Test func aClickWithoutATimeIsRecordedNow() {
        #expect(click() == .record(F.timer(1), completedAt: now, sentAs: now))
    }

    @Test func aClickOnAnUnknownTimerIsRefused() {
        #expect(click(nil) == .refuse(.unknownTimer))
    }

    @Test func aNegativeTimeIsRefused() {
        #expect(click(at: -1) == .refuse(.invalidTime))
    }

    @Test func aTimeInTheFutureIsRefusedBeyondTheSkew() {
        let edge = now.adding(M.Settings().clockSkew)
        #expect(M.Settings().clockSkew == .seconds(60))
        #expect(click(at: edge.millisecondsSince1970) == .record(F.timer(1), completedAt: edge, sentAs: edge))
        #expect(click(at: edge.millisecondsSince1970 + 1) == .refuse(.inFuture))
    }

    @Test func theTimeIsSentInThePlatformsClock() {
        let earlier = now.plus(seconds: -60)
        #expect(click(at: earlier.millisecondsSince1970, offset: .seconds(5))
            == .record(F.timer(1), completedAt: earlier, sentAs: earlier.plus(seconds: 5)))
    }

    @Test func nowBeforeTheStartByThePlatformsClockIsTheStart() {
        let timer = F.timer(1, startedAt: now.plus(seconds: -10))
        #expect(click(timer, offset: .seconds(-20)) == .record(timer, completedAt: now, sentAs: now.plus(seconds: -10)))
    }

    @Test func aGivenTimeBeforeTheStartIsRefused() {
        let timer = F.timer(1, startedAt: now.plus(seconds: -10))
        #expect(click(timer, at: now.plus(seconds: -20).millisecondsSince1970) == .refuse(.beforeStart))
    }

    @Test func aGivenTimeAtTheStartIsTheStart() {
        let start = now.plus(seconds: -10)
        let timer = F.timer(1, startedAt: start)
        #expect(click(timer, at: start.millisecondsSince1970) == .record(timer, completedAt: start, sentAs: start))
    }

    // MARK: The platform's clock

    static let otherOrigin = try! APIOrigin(parsing: "http://127.0.0.1:8443")

    @Test func theOffsetTheAppMeasuredIsKeptForItsOriginsClicks() {
        var machine = machine()
        #expect(machine.state.platformClockOffsets.isEmpty)
        machine.platformClockMeasured(.seconds(5), for: F.scope.apiOrigin)
        #expect(machine.state.platformClockOffsets == [F.scope.apiOrigin: .seconds(5)])
        #expect(machine.clicked(F.timer(1), completedAt: nil, now: now) == .record(F.timer(1), completedAt: now, sentAs: now.plus(seconds: 5)))
    }

    @Test func aLaterMeasurementReplacesTheEarlier() {
        var machine = machine()
        machine.platformClockMeasured(.seconds(5), for: F.scope.apiOrigin)
        machine.platformClockMeasured(.seconds(-3), for: F.scope.apiOrigin)
        #expect(machine.clicked(F.timer(1), completedAt: nil, now: now) == .record(F.timer(1), completedAt: now, sentAs: now.plus(seconds: -3)))
    }

    @Test func anotherOriginsOffsetLeavesAClickInThisDesktopsClock() {
        var machine = machine()
        machine.platformClockMeasured(.seconds(5), for: Self.otherOrigin)
        #expect(machine.state.platformClockOffsets == [Self.otherOrigin: .seconds(5)])
        #expect(machine.clicked(F.timer(1), completedAt: nil, now: now) == .record(F.timer(1), completedAt: now, sentAs: now))
    }

    @Test func theOffsetAnAnswersDateGaveIsKeptForTheOriginsNextClicks() {
        var machine = machine()
        machine.platformClockMeasured(.seconds(5), for: F.scope.apiOrigin)
        _ = machine.outbox([F.record(2)], now: now)
        _ = machine.answered(F.record(2), .retry(retryAfter: nil, reason: "503"), now: now, platformClockOffset: .seconds(7))
        #expect(machine.state.platformClockOffsets == [F.scope.apiOrigin: .seconds(7)])
        #expect(machine.clicked(F.timer(1), completedAt: nil, now: now) == .record(F.timer(1), completedAt: now, sentAs: now.plus(seconds: 7)))
    }

    @Test func anAnswerWithoutADateKeepsTheOffsetLastMeasured() {
        var machine = machine()
        machine.platformClockMeasured(.seconds(5), for: F.scope.apiOrigin)
        _ = machine.outbox([F.record(2)], now: now)
        _ = machine.answered(F.record(2), .alreadyCompleted, now: now)
        #expect(machine.state.platformClockOffsets == [F.scope.apiOrigin: .seconds(5)])
    }

    @Test func aRetrysJitterDrawsOnTheMachinesOwnGenerator() {
        var machine = machine()
        _ = machine.outbox([F.record(1)], now: now)
        let before = machine.state.random
        #expect(before == RandomSource.seeded(7))
        _ = machine.answered(F.record(1), .retry(retryAfter: nil, reason: "503"), now: now)
        #expect(machine.state.random != before)
    }

    @Test func aRecordedClickWhoseTimerIsInFlightIsLeftToTheOutbox() {
        var machine = machine()
        _ = machine.outbox([F.record(1)], now: now)
        #expect(machine.recorded(F.record(1), now: now) == .readOutbox)
        #expect(machine.state.inFlight == [F.id(1)])
    }
}
