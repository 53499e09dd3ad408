import DesktopAppCore
import Testing

@Suite struct BackgroundPolicyTests {
    let maya = ListedTimer(babyName: "Maya", state: "running")
    let leo = ListedTimer(babyName: "Leo", state: "token-expired")
    let saving = ListedTimer(babyName: "Maya", state: "saving")

    func hidden(with timers: [ListedTimer]) -> BackgroundPolicy {
        var policy = BackgroundPolicy()
        _ = policy.handle(.timers(timers))
        _ = policy.handle(.closeRequested)
        return policy
    }

    @Test func closingWithNoTimerQuitsAsBefore() {
        var policy = BackgroundPolicy()
        #expect(policy.handle(.closeRequested) == [.quit(sayWhatStops: false)])
        #expect(policy.handle(.shown) == [])
    }

    @Test func closingBeforeTheAgentAnsweredQuits() {
        var policy = BackgroundPolicy()
        #expect(policy.handle(.closeRequested) == [.quit(sayWhatStops: false)])
    }

    @Test func closingWithAMirroredSleepHidesHoldsAndSaysSoOnce() {
        var policy = BackgroundPolicy()
        #expect(policy.handle(.timers([maya])) == [])
        #expect(policy.handle(.closeRequested)
            == [.hideWindow, .hold, .notice(AppText.keepsRunning(babyNames: ["Maya"]))])
        #expect(!policy.visible && policy.held)
        #expect(policy.handle(.shown) == [.release])
        #expect(policy.handle(.closeRequested) == [.hideWindow, .hold])
    }

    @Test func aNoticeGivenInAnEarlierRunIsNotGivenAgain() {
        var policy = BackgroundPolicy(noticeGiven: true)
        _ = policy.handle(.timers([maya]))
        #expect(policy.handle(.closeRequested) == [.hideWindow, .hold])
    }

    @Test func theNoticeNamesTheBabyOrCountsTheSleeps() {
        #expect(AppText.keepsRunning(babyNames: ["Maya"])
            == "Dreams for Littles keeps running while Maya's sleep is on the desktop; quit from the panel or with Ctrl+Q")
        #expect(AppText.keepsRunning(babyNames: ["Maya", "Leo"])
            == "Dreams for Littles keeps running while 2 sleeps are on the desktop; quit from the panel or with Ctrl+Q")
    }

    @Test func aTimerBeingSavedDoesNotKeepTheAppRunning() {
        var policy = BackgroundPolicy()
        _ = policy.handle(.timers([saving]))
        #expect(policy.handle(.closeRequested) == [.quit(sayWhatStops: false)])
    }

    @Test func theLastTimerEndingStartsTheGraceAndItsEndQuits() {
        var policy = hidden(with: [maya, leo])
        #expect(policy.handle(.timers([leo])) == [])
        #expect(policy.handle(.timers([])) == [.startGrace(BackgroundPolicy.grace)])
        #expect(policy.handle(.timers([])) == [])
        #expect(policy.handle(.graceElapsed) == [.release, .quit(sayWhatStops: false)])
        #expect(policy.handle(.shown) == [])
    }

    @Test func aTimerComingBackInTheGraceKeepsTheApp() {
        var policy = hidden(with: [maya])
        _ = policy.handle(.timers([]))
        #expect(policy.handle(.timers([leo])) == [.cancelGrace])
        #expect(policy.handle(.graceElapsed) == [])
        #expect(policy.held)
    }

    @Test func showingTheWindowInTheGraceCancelsItAndReleases() {
        var policy = hidden(with: [maya])
        _ = policy.handle(.timers([]))
        #expect(policy.handle(.shown) == [.cancelGrace, .release])
        #expect(policy.handle(.graceElapsed) == [])
        #expect(policy.handle(.closeRequested) == [.quit(sayWhatStops: false)])
    }

    @Test func timersChangingWhileShownDoNothing() {
        var policy = BackgroundPolicy()
        #expect(policy.handle(.timers([maya])) == [])
        #expect(policy.handle(.timers([])) == [])
        #expect(policy.visible && !policy.held && !policy.graceRunning)
    }

    @Test func quitQuitsHiddenOrShownAndSaysWhatStopsWhileATimerIsMirrored() {
        var shown = BackgroundPolicy()
        #expect(shown.handle(.quitRequested) == [.quit(sayWhatStops: false)])
        var hiddenApp = hidden(with: [maya])
        #expect(hiddenApp.handle(.quitRequested) == [.release, .quit(sayWhatStops: true)])
        #expect(hiddenApp.handle(.timers([])) == [])
        #expect(hiddenApp.handle(.quitRequested) == [])
    }

    /// Tests/Integration/test_background.py waits these ten seconds for a
    /// hidden app with no timer to quit.
    @Test func theGraceIsTenSeconds() {
        #expect(BackgroundPolicy.grace == .seconds(10))
    }

    @Test func startedInTheBackgroundItWaitsForTimersThenHolds() {
        var policy = BackgroundPolicy(visible: false)
        #expect(policy.handle(.startedHidden) == [.startGrace(BackgroundPolicy.grace)])
        #expect(policy.handle(.timers([maya])) == [.cancelGrace, .hold])
        #expect(policy.handle(.timers([])) == [.startGrace(BackgroundPolicy.grace)])
        #expect(policy.handle(.graceElapsed) == [.release, .quit(sayWhatStops: false)])
    }

    @Test func startedInTheBackgroundWithNothingMirroredItQuitsAfterTheGrace() {
        var policy = BackgroundPolicy(visible: false)
        _ = policy.handle(.startedHidden)
        #expect(policy.handle(.timers([])) == [])
        #expect(policy.handle(.graceElapsed) == [.quit(sayWhatStops: false)])
    }

    @Test func closingAHiddenWindowAgainDoesNothing() {
        var policy = hidden(with: [maya])
        #expect(policy.handle(.closeRequested) == [])
    }
}
