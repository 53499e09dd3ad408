import Foundation
import DFLTestSupport
import Testing
import SleepTimerCore
@testable import SleepTimerStore

@Suite struct TimerRowTests {
    let directory = TemporaryDirectory()

    @Test func aMirrorRoundTripsEveryField() throws {
        let store = try StoreFixtures.open(directory)
        let timer = Fixtures.timer(1, name: "Zoë <b>&</b>")
        #expect(try store.upsert(timer) == .inserted)
        let stored = try #require(try store.timer(timer.id))
        #expect(stored.timer == timer)
        #expect(stored.state == .running)
        #expect(stored.timer.token?.withRevealedValue { $0 } == Fixtures.canary)
    }

    @Test func aLowerRevisionIsIgnoredAndAnEqualOrHigherOneApplies() throws {
        let store = try StoreFixtures.open(directory)
        #expect(try store.upsert(Fixtures.timer(1, revision: 5, name: "Five")) == .inserted)
        #expect(try store.upsert(Fixtures.timer(1, revision: 4, name: "Four")) == .ignoredStale(storedRevision: 5))
        #expect(try store.timer(Fixtures.timerID(1))?.timer.babyName.text == "Five")
        #expect(try store.upsert(Fixtures.timer(1, revision: 5, name: "Again")) == .updated)
        #expect(try store.upsert(Fixtures.timer(1, revision: 6, name: "Six")) == .updated)
        #expect(try store.timer(Fixtures.timerID(1))?.timer.babyName.text == "Six")
    }

    @Test func removeReportsWhetherThereWasAMirror() throws {
        let store = try StoreFixtures.open(directory)
        _ = try store.upsert(Fixtures.timer(1))
        try store.setNotification(for: Fixtures.timerID(1), NotificationRecord(notificationID: 7, dismissedInState: nil))
        #expect(try store.remove(Fixtures.timerID(1)))
        #expect(try !store.remove(Fixtures.timerID(1)))
        #expect(try store.timer(Fixtures.timerID(1)) == nil)
        // Kept until the agent has taken the notification away.
        #expect(try store.notification(for: Fixtures.timerID(1)) == NotificationRecord(notificationID: 7, dismissedInState: nil))
    }

    @Test func aDismissalGoesWithItsTimer() throws {
        let store = try StoreFixtures.open(directory)
        _ = try store.upsert(Fixtures.timer(1))
        try store.setNotification(for: Fixtures.timerID(1), NotificationRecord(notificationID: 0, dismissedInState: "running:1"))
        #expect(try store.remove(Fixtures.timerID(1)))
        #expect(try store.notification(for: Fixtures.timerID(1)) == nil)
    }

    @Test func aShownNotificationsRecordGoesOnlyWhenRemoved() throws {
        let store = try StoreFixtures.open(directory)
        _ = try store.upsert(Fixtures.timer(1))
        try store.setNotification(for: Fixtures.timerID(1), NotificationRecord(notificationID: 7, dismissedInState: nil))
        _ = try store.remove(Fixtures.timerID(1))
        try store.removeNotification(for: Fixtures.timerID(1))
        #expect(try store.notifications().isEmpty)
    }

    @Test func reconcileDropsOnlyTheScopesTimersThatAreNotRunning() throws {
        let store = try StoreFixtures.open(directory)
        let otherScope = TimerScope(
            apiOrigin: Fixtures.apiOrigin, userID: Fixtures.user, familySubjectID: Fixtures.otherFamily)
        for index in 1...3 { _ = try store.upsert(Fixtures.timer(index)) }
        _ = try store.upsert(Fixtures.timer(4, scope: otherScope))
        let removed = try store.reconcile(scope: Fixtures.scope, keeping: [Fixtures.timerID(2)])
        #expect(removed == [Fixtures.timerID(1), Fixtures.timerID(3)])
        #expect(try store.timers().map(\.timer.id) == [Fixtures.timerID(2), Fixtures.timerID(4)])
        #expect(try store.reconcile(scope: Fixtures.scope, keeping: [Fixtures.timerID(2)]).isEmpty)
    }

    @Test func purgeOfOneFamilyKeepsTheOthers() throws {
        let store = try StoreFixtures.open(directory)
        let otherFamily = TimerScope(
            apiOrigin: Fixtures.apiOrigin, userID: Fixtures.user, familySubjectID: Fixtures.otherFamily)
        _ = try store.upsert(Fixtures.timer(1))
        _ = try store.upsert(Fixtures.timer(2, scope: otherFamily))
        #expect(try store.purge(apiOrigin: Fixtures.apiOrigin, userID: Fixtures.user, familySubjectID: Fixtures.family)
            == PurgeOutcome(timers: [Fixtures.timerID(1)], pendingCompletions: 0))
        #expect(try store.timers().map(\.timer.id) == [Fixtures.timerID(2)])
    }

    @Test func purgeOfEveryFamilyRemovesTokensCompletionsAndNotificationsButNotOtherUsers() throws {
        let store = try StoreFixtures.open(directory)
        let otherFamily = TimerScope(
            apiOrigin: Fixtures.apiOrigin, userID: Fixtures.user, familySubjectID: Fixtures.otherFamily)
        let otherUser = TimerScope(
            apiOrigin: Fixtures.apiOrigin, userID: Fixtures.otherUser, familySubjectID: Fixtures.family)
        _ = try store.upsert(Fixtures.timer(1))
        _ = try store.upsert(Fixtures.timer(2, scope: otherFamily))
        _ = try store.upsert(Fixtures.timer(3, scope: otherUser))
        _ = try store.recordCompletion(of: Fixtures.timerID(1), completedAt: Fixtures.now, now: Fixtures.now)
        try store.setNotification(for: Fixtures.timerID(2), NotificationRecord(notificationID: 9, dismissedInState: nil))
        let removed = try store.purge(apiOrigin: Fixtures.apiOrigin, userID: Fixtures.user, familySubjectID: nil)
        #expect(Set(removed.timers) == [Fixtures.timerID(1), Fixtures.timerID(2)])
        #expect(removed.pendingCompletions == 1)
        #expect(try store.timers().map(\.timer.id) == [Fixtures.timerID(3)])
        #expect(try store.completion(of: Fixtures.timerID(1)) == nil)
        // The notification may still show the baby's name: the agent takes
        // it away, then its row.
        #expect(try store.notification(for: Fixtures.timerID(2)) == NotificationRecord(notificationID: 9, dismissedInState: nil))
        #expect(try store.pendingCompletionCount() == 0)
    }

    @Test func removingSeveralKeepsAPendingCompletionAndSaysWhichWereThere() throws {
        let store = try StoreFixtures.open(directory, clock: ManualClock(Fixtures.now))
        _ = try store.upsert(Fixtures.timer(1))
        _ = try store.upsert(Fixtures.timer(2))
        _ = try store.upsert(Fixtures.timer(3))
        _ = try store.recordCompletion(of: Fixtures.timerID(2), completedAt: Fixtures.now, now: Fixtures.now)
        let removed = try store.remove([Fixtures.timerID(1), Fixtures.timerID(2), Fixtures.timerID(9)])
        #expect(removed == [Fixtures.timerID(1), Fixtures.timerID(2)])
        #expect(try store.timers().map(\.timer.id) == [Fixtures.timerID(3)])
        // The click on timer 2 is still sent.
        #expect(try store.pendingCompletionCount() == 1)
    }

    @Test func purgeCountsThePendingClicksOfTimersRemovedBefore() throws {
        let store = try StoreFixtures.open(directory)
        for index in 1...3 { _ = try store.upsert(Fixtures.timer(index)) }
        _ = try store.recordCompletion(of: Fixtures.timerID(1), completedAt: Fixtures.now, now: Fixtures.now)
        _ = try store.recordCompletion(of: Fixtures.timerID(2), completedAt: Fixtures.now, now: Fixtures.now)
        _ = try store.failCompletion(of: Fixtures.timerID(2), state: .needsApp, lastError: "token expired")
        _ = try store.recordCompletion(of: Fixtures.timerID(3), completedAt: Fixtures.now, now: Fixtures.now)
        #expect(try store.remove(Fixtures.timerID(1)))
        let purged = try store.purge(apiOrigin: Fixtures.apiOrigin, userID: Fixtures.user, familySubjectID: nil)
        // Timer 1's click went without a timer; timer 2's had failed.
        #expect(purged == PurgeOutcome(timers: [Fixtures.timerID(2), Fixtures.timerID(3)], pendingCompletions: 2))
        #expect(try store.pendingCompletionCount() == 0)
    }
}

@Suite struct CompletionOutboxTests {
    let directory = TemporaryDirectory()
    let now = Fixtures.now

    @Test func theBodyCarriesTheTimeInThePlatformsClockAndTheRecordTheClick() throws {
        let store = try StoreFixtures.open(directory)
        _ = try store.upsert(Fixtures.timer(1))
        let record = try store.recordCompletion(
            of: Fixtures.timerID(1), completedAt: now, sentAs: now.adding(milliseconds: 90_000), now: now)
        #expect(record.completedAt == now)
        #expect(record.requestBody == NativeCompletion.requestBody(
            token: ActionToken(unvalidated: Fixtures.canary), completedAt: now.adding(milliseconds: 90_000)))
    }

    @Test func aTimeIsCorrectedOnceAndTheEntryIsDueAtOnce() throws {
        let store = try StoreFixtures.open(directory)
        _ = try store.upsert(Fixtures.timer(1))
        _ = try store.recordCompletion(of: Fixtures.timerID(1), completedAt: now, now: now)
        _ = try store.scheduleRetry(of: Fixtures.timerID(1), attempts: 1, nextAttemptAt: now.adding(milliseconds: 60_000), lastError: "x")
        let corrected = NativeCompletion.requestBody(
            token: ActionToken(unvalidated: Fixtures.canary), completedAt: now.adding(milliseconds: -90_000))
        let written = try store.retimeCompletion(of: Fixtures.timerID(1), body: corrected, now: now)
        #expect(written != nil)
        let record = try #require(try store.completion(of: Fixtures.timerID(1)))
        #expect(record.retimed && record.requestBody == corrected && record.nextAttemptAt == now)
        // It returned the entry as it wrote it: what a read finds.
        #expect(written == record)
        #expect(try store.retimeCompletion(of: Fixtures.timerID(1), body: corrected, now: now) == nil)
    }

    @Test func aNewerTokensBodyIsReturnedAsWrittenAndOnlyForAPendingEntry() throws {
        let store = try StoreFixtures.open(directory)
        _ = try store.upsert(Fixtures.timer(1))
        _ = try store.recordCompletion(of: Fixtures.timerID(1), completedAt: now, now: now)
        _ = try store.scheduleRetry(of: Fixtures.timerID(1), attempts: 2, nextAttemptAt: now.adding(milliseconds: 60_000), lastError: "x")
        let newer = NativeCompletion.requestBody(token: ActionToken(unvalidated: "dflnat_NEWER_token_value_0123456789"), completedAt: now)
        let later = now.adding(milliseconds: 5000)
        let written = try #require(try store.retokenCompletion(of: Fixtures.timerID(1), body: newer, now: later))
        #expect(written.requestBody == newer && written.nextAttemptAt == later && written.attempts == 2 && !written.retimed)
        #expect(try store.completion(of: Fixtures.timerID(1)) == written)
        _ = try store.failCompletion(of: Fixtures.timerID(1), state: .needsApp, lastError: "revoked")
        #expect(try store.retokenCompletion(of: Fixtures.timerID(1), body: newer, now: later) == nil)
        #expect(try store.completion(of: Fixtures.timerID(1))?.requestBody == nil)
    }

    @Test func recordingKeepsTheClickTimeAndTheExactBody() throws {
        let store = try StoreFixtures.open(directory)
        _ = try store.upsert(Fixtures.timer(1))
        let clicked = now.adding(milliseconds: -4000)
        let record = try store.recordCompletion(of: Fixtures.timerID(1), completedAt: clicked, now: now)
        let expected = NativeCompletion.requestBody(token: ActionToken(unvalidated: Fixtures.canary), completedAt: clicked)
        #expect(record.requestBody == expected)
        #expect(record.completedAt == clicked)
        #expect(try store.completion(of: Fixtures.timerID(1)) == record)
        #expect(try store.timer(Fixtures.timerID(1))?.state == .saving)
        #expect(try store.pendingCompletionCount() == 1)
        #expect(try store.dueCompletions(at: now) == [record])
        #expect(try store.dueCompletions(at: Instant(millisecondsSince1970: .max)).map(\.nextAttemptAt) == [now])
    }

    @Test func aTimerCanBeCompletedOnlyOnceAndOnlyWithAValidToken() throws {
        let store = try StoreFixtures.open(directory)
        #expect(throws: StoreError.self) {
            try store.recordCompletion(of: Fixtures.timerID(9), completedAt: now, now: now)
        }
        _ = try store.upsert(Fixtures.timer(1))
        _ = try store.upsert(Fixtures.timer(2, token: nil))
        _ = try store.upsert(Fixtures.timer(3, expiresIn: 1000))
        _ = try store.recordCompletion(of: Fixtures.timerID(1), completedAt: now, now: now)
        for (index, at) in [(1, now), (2, now), (3, now.adding(milliseconds: 1000))] {
            do {
                _ = try store.recordCompletion(of: Fixtures.timerID(index), completedAt: at, now: at)
                Issue.record("timer \(index) was completed again")
            } catch {
                #expect(error.code == .cannotComplete)
                #expect(!error.description.contains("CANARY"))
            }
        }
        #expect(try store.pendingCompletionCount() == 1)
    }

    @Test func theStoreRecordsAClickExactlyWhenTheTimerCanBeCompleted() throws {
        let store = try StoreFixtures.open(directory)
        _ = try store.upsert(Fixtures.timer(1))
        _ = try store.upsert(Fixtures.timer(2, token: nil))
        _ = try store.upsert(Fixtures.timer(3, expiresIn: 1))
        _ = try store.upsert(Fixtures.timer(4, expiresIn: 0))
        _ = try store.upsert(Fixtures.timer(5))
        _ = try store.recordCompletion(of: Fixtures.timerID(5), completedAt: now, now: now)
        for index in 1...5 {
            let stored = try #require(try store.timer(Fixtures.timerID(index)))
            let recorded: Bool
            do {
                _ = try store.recordCompletion(of: Fixtures.timerID(index), completedAt: now, now: now)
                recorded = true
            } catch {
                recorded = false
                #expect(error.code == .cannotComplete)
                // The caller hears which of the two it is.
                #expect(error.description.contains(
                    stored.completion(at: now) == .alreadyRecorded ? "already being saved" : "can no longer be completed"))
            }
            #expect(recorded == stored.canComplete(at: now), "timer \(index)")
        }
        #expect(try store.pendingCompletionCount() == 3)
    }

    @Test func aRefusedCompletionRollsBackWithoutReachingTheCommit() throws {
        let store = try StoreFixtures.open(directory)
        var commits = 0
        store.beforeCommit = { commits += 1 }
        #expect(throws: StoreError.self) {
            try store.recordCompletion(of: Fixtures.timerID(9), completedAt: now, now: now)
        }
        #expect(commits == 0)
        _ = try store.upsert(Fixtures.timer(1))
        #expect(commits == 1)
    }

    @Test func dueCompletionsAreLimitedAndOrdered() throws {
        let store = try StoreFixtures.open(directory)
        for index in 1...3 {
            _ = try store.upsert(Fixtures.timer(index))
            _ = try store.recordCompletion(of: Fixtures.timerID(index), completedAt: now, now: now.adding(milliseconds: Int64(10 - index)))
        }
        #expect(try store.dueCompletions(at: now.adding(milliseconds: 100), limit: 2).map(\.timerID)
            == [Fixtures.timerID(3), Fixtures.timerID(2)])
    }

    @Test func retriesAreScheduledAndTheNextDueTimeFollows() throws {
        let store = try StoreFixtures.open(directory)
        _ = try store.upsert(Fixtures.timer(1))
        _ = try store.recordCompletion(of: Fixtures.timerID(1), completedAt: now, now: now)
        let later = now.adding(milliseconds: 30_000)
        let written = try store.scheduleRetry(of: Fixtures.timerID(1), attempts: 1, nextAttemptAt: later, lastError: "timed out")
        #expect(try store.dueCompletions(at: now).isEmpty)
        #expect(try store.dueCompletions(at: Instant(millisecondsSince1970: .max)).map(\.nextAttemptAt) == [later])
        let due = try store.dueCompletions(at: later)
        #expect(due.count == 1)
        #expect(due.first?.attempts == 1)
        #expect(due.first?.lastError == "timed out")
        // The retry returned the entry as it wrote it: what a read finds.
        #expect(written != nil && written == due.first)
    }

    @Test func pendingCompletionsCanBeBroughtForward() throws {
        let store = try StoreFixtures.open(directory)
        _ = try store.upsert(Fixtures.timer(1))
        _ = try store.recordCompletion(of: Fixtures.timerID(1), completedAt: now, now: now)
        _ = try store.scheduleRetry(of: Fixtures.timerID(1), attempts: 3, nextAttemptAt: now.adding(milliseconds: 300_000), lastError: "offline")
        let later = now.adding(milliseconds: 1000)
        try store.bringPendingCompletionsForward(to: later)
        #expect(try store.dueCompletions(at: later).count == 1)
        #expect(try store.dueCompletions(at: later).first?.attempts == 3)
    }

    @Test func finishingRemovesTimerAndCompletionTogetherAndKeepsTheNotificationsRecord() throws {
        let store = try StoreFixtures.open(directory)
        _ = try store.upsert(Fixtures.timer(1))
        try store.setNotification(for: Fixtures.timerID(1), NotificationRecord(notificationID: 3, dismissedInState: nil))
        _ = try store.recordCompletion(of: Fixtures.timerID(1), completedAt: now, now: now)
        #expect(try store.finishCompletion(of: Fixtures.timerID(1)))
        #expect(try store.timer(Fixtures.timerID(1)) == nil)
        #expect(try store.completion(of: Fixtures.timerID(1)) == nil)
        #expect(try store.notification(for: Fixtures.timerID(1)) == NotificationRecord(notificationID: 3, dismissedInState: nil))
        #expect(try store.dueCompletions(at: Instant(millisecondsSince1970: .max)).isEmpty)
        // Nothing pending was left to finish.
        #expect(try !store.finishCompletion(of: Fixtures.timerID(1)))
    }

    @Test func aFailedCompletionStaysVisibleWithoutItsTokenUntilTheAppMirrorsAgain() throws {
        let store = try StoreFixtures.open(directory)
        _ = try store.upsert(Fixtures.timer(1))
        _ = try store.recordCompletion(of: Fixtures.timerID(1), completedAt: now, now: now)
        let failed = try #require(try store.failCompletion(of: Fixtures.timerID(1), state: .needsApp, lastError: "token expired"))
        let stored = try #require(try store.timer(Fixtures.timerID(1)))
        #expect(stored.state == .needsApp)
        #expect(stored.timer.token == nil)
        #expect(try store.completion(of: Fixtures.timerID(1))?.requestBody == nil)
        #expect(try store.pendingCompletionCount() == 0)
        // The failure returned the entry and the timer as it wrote them:
        // what a read finds.
        #expect(failed.timer == stored)
        #expect(try failed.record == store.completion(of: Fixtures.timerID(1)))
        #expect(failed.record.state == .needsApp && failed.record.lastError == "token expired")
        // A fresh token from the app makes it completable again.
        #expect(try store.upsert(Fixtures.timer(1, revision: 2)) == .updated)
        #expect(try store.timer(Fixtures.timerID(1))?.state == .running)
        #expect(try store.completion(of: Fixtures.timerID(1)) == nil)
    }

    @Test func aFailureReturnsTheAttemptsCountedAndTheTimerWithThem() throws {
        let store = try StoreFixtures.open(directory)
        _ = try store.upsert(Fixtures.timer(1))
        _ = try store.recordCompletion(of: Fixtures.timerID(1), completedAt: now, now: now)
        let retried = try #require(try store.scheduleRetry(
            of: Fixtures.timerID(1), attempts: 2, nextAttemptAt: now.adding(milliseconds: 5000), lastError: "offline"))
        #expect(retried.attempts == 2 && retried.state == .pending && retried.requestBody != nil)
        let failed = try #require(try store.failCompletion(of: Fixtures.timerID(1), state: .failed, lastError: "gave up"))
        #expect(failed.record.attempts == 2)
        #expect(failed.timer?.completionAttempts == 2)
        #expect(failed.timer?.state == .saveFailed)
        #expect(try failed.timer == store.timer(Fixtures.timerID(1)))
    }

    @Test func aSettledEntryIsNeitherRetriedNorFailedAgain() throws {
        let store = try StoreFixtures.open(directory)
        _ = try store.upsert(Fixtures.timer(1))
        _ = try store.recordCompletion(of: Fixtures.timerID(1), completedAt: now, now: now)
        _ = try store.failCompletion(of: Fixtures.timerID(1), state: .needsApp, lastError: "token expired")
        let settled = try store.completion(of: Fixtures.timerID(1))
        #expect(try store.failCompletion(of: Fixtures.timerID(1), state: .failed, lastError: "again") == nil)
        #expect(try store.scheduleRetry(
            of: Fixtures.timerID(1), attempts: 1, nextAttemptAt: now.adding(milliseconds: 1000), lastError: "x") == nil)
        #expect(try store.completion(of: Fixtures.timerID(1)) == settled)
        #expect(try store.timer(Fixtures.timerID(1))?.state == .needsApp)
    }

    @Test func aPurgedEntryIsNeitherRetriedFailedNorFinished() throws {
        let store = try StoreFixtures.open(directory)
        _ = try store.upsert(Fixtures.timer(1))
        _ = try store.recordCompletion(of: Fixtures.timerID(1), completedAt: now, now: now)
        _ = try store.purge(apiOrigin: Fixtures.apiOrigin, userID: Fixtures.user, familySubjectID: nil)
        #expect(try store.scheduleRetry(
            of: Fixtures.timerID(1), attempts: 1, nextAttemptAt: now.adding(milliseconds: 1000), lastError: "x") == nil)
        #expect(try store.failCompletion(of: Fixtures.timerID(1), state: .failed, lastError: "x") == nil)
        #expect(try !store.finishCompletion(of: Fixtures.timerID(1)))
        #expect(try store.completion(of: Fixtures.timerID(1)) == nil)
    }

    @Test func theFailedClickOfARemovedTimerIsReturnedWithoutATimer() throws {
        let store = try StoreFixtures.open(directory)
        _ = try store.upsert(Fixtures.timer(1))
        _ = try store.recordCompletion(of: Fixtures.timerID(1), completedAt: now, now: now)
        #expect(try store.remove(Fixtures.timerID(1)))
        let failed = try #require(try store.failCompletion(of: Fixtures.timerID(1), state: .failed, lastError: "x"))
        #expect(failed.timer == nil)
        #expect(failed.record.timerID == Fixtures.timerID(1) && failed.record.state == .failed)
        #expect(try store.pendingCompletionCount() == 0)
    }

    @Test func aPendingCompletionOutlivesRemoveAndReconcile() throws {
        let store = try StoreFixtures.open(directory)
        _ = try store.upsert(Fixtures.timer(1))
        _ = try store.recordCompletion(of: Fixtures.timerID(1), completedAt: now, now: now)
        #expect(try store.remove(Fixtures.timerID(1)))
        #expect(try store.completion(of: Fixtures.timerID(1))?.state == .pending)
        #expect(try store.dueCompletions(at: now).count == 1)
    }
}

@Suite struct NotificationMapTests {
    let directory = TemporaryDirectory()

    @Test func keepsTheIdAndTheDismissedState() throws {
        let store = try StoreFixtures.open(directory)
        let id = Fixtures.timerID(1)
        #expect(try store.notification(for: id) == nil)
        try store.setNotification(for: id, NotificationRecord(notificationID: 41, dismissedInState: nil))
        try store.setNotification(for: id, NotificationRecord(notificationID: 42, dismissedInState: "running:3", serverOwner: ":1.7"))
        #expect(try store.notification(for: id) == NotificationRecord(notificationID: 42, dismissedInState: "running:3", serverOwner: ":1.7"))
        try store.removeNotification(for: id)
        #expect(try store.notification(for: id) == nil)
    }
}
