import DFLTestSupport
import Testing
import SleepTimerCore

/// The one phase the notification and the panel both show, read from the
/// stored state, and the one minute boundary both refresh on.
@Suite struct TimerPhaseTests {
    let now = Fixtures.now

    func stored(
        _ completion: CompletionState? = nil, attempts: Int = 0, token: String? = Fixtures.canary,
        expiresIn: Int64 = Milliseconds.hour
    ) -> StoredTimer {
        StoredTimer(
            timer: Fixtures.timer(1, token: token, expiresIn: expiresIn), completionState: completion,
            completionAttempts: attempts)
    }

    @Test func aRunningTimerCanBeCompletedWhileItsTokenHolds() {
        #expect(TimerPhase(of: stored(), at: now) == .running(canComplete: true))
        #expect(TimerPhase(of: stored(expiresIn: 0), at: now) == .running(canComplete: false))
        #expect(TimerPhase(of: stored(token: nil), at: now) == .running(canComplete: false))
    }

    @Test func onlyARunningTimerShowsItsTokenRanOut() {
        #expect(stored().state(at: now) == .running)
        #expect(stored(expiresIn: 0).state(at: now) == .tokenExpired)
        #expect(stored(.pending, expiresIn: 0).state(at: now) == .saving)
        #expect(stored(.failed, expiresIn: 0).state(at: now) == .saveFailed)
    }

    @Test func aRecordedCompletionIsSavingAndWaitsForTheNetworkOnceAnAttemptFailed() {
        #expect(TimerPhase(of: stored(.pending), at: now) == .saving(waitingForNetwork: false))
        #expect(TimerPhase(of: stored(.pending, attempts: 2), at: now) == .saving(waitingForNetwork: true))
    }

    @Test func aCompletionRefusedOrNeedingTheAppHasFailed() {
        #expect(TimerPhase(of: stored(.failed), at: now) == .failed)
        #expect(TimerPhase(of: stored(.needsApp), at: now) == .failed)
    }

    @Test func theStateReadAtAMomentMapsAsTheStoredTimerDoes() {
        #expect(TimerPhase(state: .tokenExpired, canComplete: false, completionAttempts: 0) == .running(canComplete: false))
        #expect(TimerPhase(state: .running, canComplete: true, completionAttempts: 0) == .running(canComplete: true))
        #expect(TimerPhase(state: .saving, canComplete: false, completionAttempts: 1) == .saving(waitingForNetwork: true))
        #expect(TimerPhase(state: .saveFailed, canComplete: false, completionAttempts: 3) == .failed)
        for timer in [stored(), stored(expiresIn: 0), stored(.pending, attempts: 1), stored(.needsApp)] {
            let read = TimerPhase(
                state: timer.state(at: now), canComplete: timer.canComplete(at: now),
                completionAttempts: timer.completionAttempts)
            #expect(read == TimerPhase(of: timer, at: now))
        }
    }

    @Test func onlyARunningTimerChangesByTheMinute() {
        #expect(TimerPhase.running(canComplete: false).isRunning)
        #expect(!TimerPhase.saving(waitingForNetwork: false).isRunning)
        #expect(!TimerPhase.saved(minutes: 3).isRunning)
        #expect(!TimerPhase.failed.isRunning)
    }

    @Test func updatesFallOnTheMinuteBoundaryOfTheStart() {
        let started = Instant(millisecondsSince1970: 1_000_000_017_250)
        #expect(TimerPhase.nextMinuteBoundary(after: started, startedAt: started)
            == started.adding(milliseconds: 60_000))
        #expect(TimerPhase.nextMinuteBoundary(after: started.adding(milliseconds: 59_999), startedAt: started)
            == started.adding(milliseconds: 60_000))
        #expect(TimerPhase.nextMinuteBoundary(after: started.adding(milliseconds: 60_000), startedAt: started)
            == started.adding(milliseconds: 120_000))
        #expect(TimerPhase.nextMinuteBoundary(after: started.adding(milliseconds: -5000), startedAt: started)
            == started.adding(milliseconds: 60_000))
    }

    /// A clock set back by more than a minute before the start: still the
    /// first minute, not the start itself.
    @Test func aClockFarBeforeTheStartWaitsForTheFirstMinute() {
        let started = Instant(millisecondsSince1970: 1_000_000_017_250)
        #expect(TimerPhase.nextMinuteBoundary(after: started.adding(milliseconds: -90_000), startedAt: started)
            == started.adding(milliseconds: 60_000))
    }

    @Test func theBoundaryOfALongSleepIsAWholeNumberOfMinutesFromItsStart() {
        let started = Instant(millisecondsSince1970: 1_000_000_017_250)
        let later = started.adding(milliseconds: 9 * Milliseconds.hour + 30_001)
        let boundary = TimerPhase.nextMinuteBoundary(after: later, startedAt: started)
        #expect(boundary == started.adding(milliseconds: 9 * Milliseconds.hour + Milliseconds.minute))
        #expect(boundary.milliseconds(since: started) % Milliseconds.minute == 0)
    }
}
