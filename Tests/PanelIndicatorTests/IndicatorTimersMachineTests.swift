@testable import PanelIndicator
import SleepTimerCore
import Testing

@Suite struct IndicatorTimersMachineTests {
    let now = Instant(millisecondsSince1970: 1_795_988_460_000)
    let id = TimerID("3f2504e0-4f89-41d3-9a0c-0305e82c3301")!
    let savedMoment = IndicatorTimersMachine.Settings().savedMoment

    func running(_ id: TimerID? = nil, name: String = "Maya", startedSecondsAgo: Int64 = 60) -> IndicatorTimer {
        IndicatorTimer(id: id ?? self.id, babyName: try! BabyName(validating: name),
                       startedAt: now.adding(milliseconds: -startedSecondsAgo * 1000), phase: .running(canComplete: true))
    }

    @Test func aChangedTimerIsShownAsItIsNow() {
        var shown = IndicatorTimersMachine()
        #expect(shown.timerChanged(running()) == [running()])
        #expect(shown.state.all == [running()])
        #expect(shown.nextMomentEnd == nil)
    }

    @Test func aRemovedTimerGoes() {
        var shown = IndicatorTimersMachine()
        _ = shown.timerChanged(running())
        #expect(shown.timerRemoved(id) == [])
        #expect(shown.state.all.isEmpty)
        #expect(shown.timerRemoved(id) == nil)
    }

    @Test func aSavedSleepStaysForItsMomentAfterTheTimerLeft() {
        var shown = IndicatorTimersMachine()
        _ = shown.timerChanged(running())
        let saved = IndicatorTimer(id: id, babyName: running().babyName, startedAt: running().startedAt, phase: .saved(minutes: 97))
        #expect(shown.sleepSaved(id, minutes: 97, now: now) == [saved])
        #expect(shown.timerRemoved(id) == nil)
        #expect(shown.state.all.first?.phase == .saved(minutes: 97))
        #expect(shown.nextMomentEnd == now + savedMoment)
        #expect(shown.woke(now: now.adding(milliseconds: 9_999)) == nil)
        #expect(shown.state.all == [saved])
        #expect(shown.woke(now: now + savedMoment) == [])
        #expect(shown.state.all.isEmpty)
        #expect(shown.nextMomentEnd == nil)
    }

    @Test func aSleepNotShownIsNotSaidToBeSaved() {
        var shown = IndicatorTimersMachine()
        #expect(shown.sleepSaved(id, minutes: 5, now: now) == nil)
        #expect(shown.state.all.isEmpty)
        #expect(shown.nextMomentEnd == nil)
    }

    @Test func aChangeDuringTheMomentEndsIt() {
        var shown = IndicatorTimersMachine()
        _ = shown.timerChanged(running())
        _ = shown.sleepSaved(id, minutes: 97, now: now)
        #expect(shown.timerChanged(running()) == [running()])
        #expect(shown.nextMomentEnd == nil)
        #expect(shown.state.all == [running()])
    }

    /// Only the moments that are over end; a running timer beside them
    /// stays, and the next moment's end is the one left.
    @Test func aWakeUpEndsOnlyTheMomentsThatAreOver() {
        let leo = TimerID("3f2504e0-4f89-41d3-9a0c-0305e82c3302")!
        let zoe = TimerID("3f2504e0-4f89-41d3-9a0c-0305e82c3303")!
        var shown = IndicatorTimersMachine()
        _ = shown.timerChanged(running())
        _ = shown.timerChanged(running(leo, name: "Leo", startedSecondsAgo: 30))
        _ = shown.timerChanged(running(zoe, name: "Zoë", startedSecondsAgo: 20))
        _ = shown.sleepSaved(id, minutes: 1, now: now)
        _ = shown.sleepSaved(zoe, minutes: 1, now: now.adding(milliseconds: 1_000))
        #expect(shown.woke(now: now + savedMoment).map { $0.map(\.id) } == [leo, zoe])
        #expect(shown.nextMomentEnd == now.adding(milliseconds: 1_000) + savedMoment)
    }

    /// The list comes in the one list order, whatever order the changes came in.
    @Test func theTimersShownComeInTheListOrder() {
        let leo = TimerID("3f2504e0-4f89-41d3-9a0c-0305e82c3302")!
        var shown = IndicatorTimersMachine()
        _ = shown.timerChanged(running(leo, name: "Leo", startedSecondsAgo: 30))
        #expect(shown.timerChanged(running()) == [running(), running(leo, name: "Leo", startedSecondsAgo: 30)])
    }

    @Test func aRemovedTimerThatWasNeverShownChangesNothing() {
        var shown = IndicatorTimersMachine()
        #expect(shown.timerRemoved(id) == nil)
        #expect(shown.state == IndicatorTimersMachine.State())
    }

    @Test func theSavedMomentLastsAsLongAsTheNotificationsSleepSavedAtMost() {
        #expect(savedMoment == NotificationContent.transientTimeout + NotificationContent.ignoredTimeoutGrace)
        #expect(savedMoment == NotificationContent.transientLifetime)
    }

    @Test func aSavedMomentOfItsOwnLengthIsKept() {
        var shown = IndicatorTimersMachine(settings: .init(savedMoment: .seconds(3)))
        _ = shown.timerChanged(running())
        _ = shown.sleepSaved(id, minutes: 1, now: now)
        #expect(shown.nextMomentEnd == now.adding(milliseconds: 3_000))
    }
}
