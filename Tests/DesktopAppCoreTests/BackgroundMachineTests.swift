@testable import DesktopAppCore
import Testing

@Suite struct BackgroundMachineTests {
    let maya = ListedTimer(babyName: "Maya", state: "running")
    let leo = ListedTimer(babyName: "Leo", state: "token-expired")
    let saving = ListedTimer(babyName: "Maya", state: "saving")

    func hidden(with timers: [ListedTimer]) -> BackgroundMachine {
        var machine = BackgroundMachine()
        _ = machine.timersListed(timers)
        _ = machine.closeRequested()
        return machine
    }

    @Test func closingWithNoTimerQuitsAsBefore() {
        var machine = BackgroundMachine()
        #expect(machine.closeRequested() == [.quit(sayWhatStops: false)])
        #expect(machine.shown() == [])
    }

    @Test func closingBeforeTheAgentAnsweredQuits() {
        var machine = BackgroundMachine()
        #expect(machine.closeRequested() == [.quit(sayWhatStops: false)])
    }

    @Test func closingWithAMirroredSleepHidesHoldsAndSaysSoOnce() {
        var machine = BackgroundMachine()
        #expect(machine.timersListed([maya]) == [])
        #expect(machine.closeRequested()
            == [.hideWindow, .hold, .notice(AppText.keepsRunning(babyNames: ["Maya"]))])
        #expect(machine.state.phase == .hidden(held: true, grace: false))
        #expect(machine.shown() == [.release])
        #expect(machine.closeRequested() == [.hideWindow, .hold])
    }

    @Test func aNoticeGivenInAnEarlierRunIsNotGivenAgain() {
        var machine = BackgroundMachine(noticeGiven: true)
        _ = machine.timersListed([maya])
        #expect(machine.closeRequested() == [.hideWindow, .hold])
    }

    @Test func theNoticeNamesTheBabyOrCountsTheSleeps() {
        #expect(AppText.keepsRunning(babyNames: ["Maya"])
            == "Dreams for Littles keeps running while Maya's sleep is on the desktop; quit from the panel or with Ctrl+Q")
        #expect(AppText.keepsRunning(babyNames: ["Maya", "Leo"])
            == "Dreams for Littles keeps running while 2 sleeps are on the desktop; quit from the panel or with Ctrl+Q")
    }

    @Test func aTimerBeingSavedDoesNotKeepTheAppRunning() {
        var machine = BackgroundMachine()
        _ = machine.timersListed([saving])
        #expect(machine.closeRequested() == [.quit(sayWhatStops: false)])
    }

    @Test func theLastTimerEndingStartsTheGraceAndItsEndQuits() {
        var machine = hidden(with: [maya, leo])
        #expect(machine.timersListed([leo]) == [])
        #expect(machine.timersListed([]) == [.startGrace(BackgroundMachine.Settings().grace)])
        #expect(machine.timersListed([]) == [])
        #expect(machine.graceElapsed() == [.release, .quit(sayWhatStops: false)])
        #expect(machine.shown() == [])
    }

    @Test func aTimerComingBackInTheGraceKeepsTheApp() {
        var machine = hidden(with: [maya])
        _ = machine.timersListed([])
        #expect(machine.timersListed([leo]) == [.cancelGrace])
        #expect(machine.graceElapsed() == [])
        #expect(machine.state.phase == .hidden(held: true, grace: false))
    }

    @Test func showingTheWindowInTheGraceCancelsItAndReleases() {
        var machine = hidden(with: [maya])
        _ = machine.timersListed([])
        #expect(machine.shown() == [.cancelGrace, .release])
        #expect(machine.graceElapsed() == [])
        #expect(machine.closeRequested() == [.quit(sayWhatStops: false)])
    }

    @Test func timersChangingWhileShownDoNothing() {
        var machine = BackgroundMachine()
        #expect(machine.timersListed([maya]) == [])
        #expect(machine.timersListed([]) == [])
        #expect(machine.state.phase == .shown)
    }

    @Test func quitQuitsHiddenOrShownAndSaysWhatStopsWhileATimerIsMirrored() {
        var shown = BackgroundMachine()
        #expect(shown.quitRequested() == [.quit(sayWhatStops: false)])
        var hiddenApp = hidden(with: [maya])
        #expect(hiddenApp.quitRequested() == [.release, .quit(sayWhatStops: true)])
        #expect(hiddenApp.timersListed([]) == [])
        #expect(hiddenApp.quitRequested() == [])
    }

    /// Tests/Integration/test_background.py waits these ten seconds for a
    /// hidden app with no timer to quit.
    @Test func theGraceIsTenSeconds() {
        #expect(BackgroundMachine.Settings().grace == .seconds(10))
    }

    @Test func startedInTheBackgroundItWaitsForTimersThenHolds() {
        var machine = BackgroundMachine(visible: false)
        #expect(machine.startedHidden() == [.startGrace(BackgroundMachine.Settings().grace)])
        #expect(machine.timersListed([maya]) == [.cancelGrace, .hold])
        #expect(machine.timersListed([]) == [.startGrace(BackgroundMachine.Settings().grace)])
        #expect(machine.graceElapsed() == [.release, .quit(sayWhatStops: false)])
    }

    @Test func startedInTheBackgroundWithNothingMirroredItQuitsAfterTheGrace() {
        var machine = BackgroundMachine(visible: false)
        _ = machine.startedHidden()
        #expect(machine.timersListed([]) == [])
        #expect(machine.graceElapsed() == [.quit(sayWhatStops: false)])
    }

    @Test func closingAHiddenWindowAgainDoesNothing() {
        var machine = hidden(with: [maya])
        #expect(machine.closeRequested() == [])
    }

    @Test func startedInTheBackgroundWithATimerListedAlreadyItHoldsAtOnce() {
        var machine = BackgroundMachine()
        #expect(machine.timersListed([maya]) == [])
        #expect(machine.startedHidden() == [.hold])
        #expect(machine.state.phase == .hidden(held: true, grace: false))
    }

    @Test func aNewMachineIsShownWithNothingHeldOrListed() {
        let machine = BackgroundMachine(noticeGiven: true)
        #expect(machine.state == BackgroundMachine.State(visible: true, noticeGiven: true))
        #expect(machine.state.timers.isEmpty && machine.state.phase == .shown)
    }

    @Test func afterQuitNoEventLeadsAnywhere() {
        var machine = hidden(with: [maya])
        #expect(machine.quitRequested() == [.release, .quit(sayWhatStops: true)])
        #expect(machine.shown() == [])
        #expect(machine.startedHidden() == [])
        #expect(machine.closeRequested() == [])
        #expect(machine.graceElapsed() == [])
        #expect(machine.state.phase == .quitting)
    }

    @Test func aNewMachinesStateIsTheStatesOwnFirstState() {
        #expect(BackgroundMachine().state == BackgroundMachine.State())
        #expect(BackgroundMachine.State().phase == .shown && !BackgroundMachine.State().noticeGiven)
    }

    @Test func aShownAppThatQuitIgnoresAClose() {
        var machine = BackgroundMachine()
        #expect(machine.quitRequested() == [.quit(sayWhatStops: false)])
        #expect(machine.closeRequested() == [])
        #expect(machine.quitRequested() == [])
    }

    @Test func anAppClosedWithNothingMirroredHasQuitForGood() {
        var machine = BackgroundMachine()
        #expect(machine.closeRequested() == [.quit(sayWhatStops: false)])
        #expect(machine.quitRequested() == [])
        #expect(machine.state.phase == .quitting)
    }

    @Test func anAppThatQuitAfterTheGraceHasNoGraceLeftAndQuitsNoMore() {
        var machine = hidden(with: [maya])
        _ = machine.timersListed([])
        #expect(machine.graceElapsed() == [.release, .quit(sayWhatStops: false)])
        #expect(machine.state.phase == .quitting)
        #expect(machine.quitRequested() == [])
    }

    @Test func afterQuitTheStateNoLongerChanges() {
        var machine = hidden(with: [maya])
        _ = machine.quitRequested()
        let quit = machine.state
        _ = machine.shown()
        _ = machine.timersListed([leo, maya])
        _ = machine.startedHidden()
        _ = machine.closeRequested()
        _ = machine.graceElapsed()
        #expect(machine.state == quit)
    }
}
