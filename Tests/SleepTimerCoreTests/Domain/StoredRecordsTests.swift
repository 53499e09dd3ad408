import DFLTestSupport
import SleepTimerCore
import Testing

/// "Can complete", defined once: List, the notification, the panel and the
/// store's recording of a click all ask the stored timer.
@Suite struct StoredRecordsTests {
    let now = Fixtures.now

    func stored(_ completion: CompletionState? = nil, token: String? = Fixtures.canary, expiresIn: Int64 = Milliseconds.hour)
        -> StoredTimer
    {
        StoredTimer(timer: Fixtures.timer(1, token: token, expiresIn: expiresIn), completionState: completion)
    }

    @Test func aRunningTimerWithATokenStillAcceptedCanBeCompletedWithThatToken() {
        #expect(stored().completion(at: now) == .completable(ActionToken(unvalidated: Fixtures.canary)))
        #expect(stored().canComplete(at: now))
        // The last millisecond before the expiry still counts.
        #expect(stored(expiresIn: 1).canComplete(at: now))
    }

    @Test func aTokenThatRanOutOrNoneMeansTheAppHasToFinishIt() {
        #expect(stored(expiresIn: 0).completion(at: now) == .noValidToken)
        #expect(stored(expiresIn: -1).completion(at: now) == .noValidToken)
        #expect(stored(token: nil).completion(at: now) == .noValidToken)
        #expect(!stored(expiresIn: 0).canComplete(at: now))
        #expect(!stored(token: nil).canComplete(at: now))
    }

    @Test func aRecordedCompletionIsNotRecordedAgainWhateverItsState() {
        for state in CompletionState.allCases {
            #expect(stored(state).completion(at: now) == .alreadyRecorded)
            #expect(!stored(state).canComplete(at: now))
        }
        // Recorded wins over a token that ran out: the caller hears that
        // it is being saved.
        #expect(stored(.pending, expiresIn: 0).completion(at: now) == .alreadyRecorded)
    }

    @Test func whatTheDesktopSaysAgreesWithWhetherItCanComplete() {
        for timer in [stored(), stored(expiresIn: 0), stored(token: nil), stored(.pending), stored(.needsApp)] {
            #expect(timer.canComplete(at: now) == (timer.state(at: now) == .running))
        }
    }

    @Test func aCompletionRecordedWithoutSayingSoWasNotRetimed() {
        let record = CompletionRecord(
            timerID: Fixtures.timerID(1), scope: Fixtures.scope, completedAt: now, requestBody: nil,
            tokenExpiresAt: now.adding(milliseconds: Milliseconds.hour), attempts: 0, nextAttemptAt: now, lastError: nil,
            state: .pending)
        #expect(!record.retimed)
    }
}
