import PanelIndicator
import SleepTimerCore
import Testing

@Suite struct IndicatorTimersTests {
    let now = Instant(millisecondsSince1970: 1_795_988_460_000)
    let id = TimerID("3f2504e0-4f89-41d3-9a0c-0305e82c3301")!

    func running() -> IndicatorTimer {
        IndicatorTimer(id: id, babyName: try! BabyName(validating: "Maya"), startedAt: now.adding(milliseconds: -60_000),
                       phase: .running(canComplete: true))
    }

    @Test func aChangedTimerIsShownAsItIsNow() {
        var shown = IndicatorTimers()
        shown.changed(running())
        #expect(shown.all == [running()])
        #expect(shown.nextMomentEnd == nil)
    }

    @Test func aRemovedTimerGoes() {
        var shown = IndicatorTimers()
        shown.changed(running())
        let changed1 = shown.removed(id)
        #expect(changed1)
        #expect(shown.all.isEmpty)
        let changed2 = shown.removed(id)
        #expect(!changed2)
    }

    @Test func aSavedSleepStaysForItsMomentAfterTheTimerLeft() {
        var shown = IndicatorTimers()
        shown.changed(running())
        let savedIt = shown.saved(id, minutes: 97, now: now)
        #expect(savedIt)
        let removedIt = shown.removed(id)
        #expect(!removedIt)
        #expect(shown.all.first?.phase == .saved(minutes: 97))
        #expect(shown.nextMomentEnd == now.adding(IndicatorTimers.savedMoment))
        let early = shown.endMoments(at: now.adding(milliseconds: 9_999))
        #expect(!early)
        let over = shown.endMoments(at: now.adding(IndicatorTimers.savedMoment))
        #expect(over)
        #expect(shown.all.isEmpty)
        #expect(shown.nextMomentEnd == nil)
    }

    @Test func aSleepNotShownIsNotSaidToBeSaved() {
        var shown = IndicatorTimers()
        let savedUnknown = shown.saved(id, minutes: 5, now: now)
        #expect(!savedUnknown)
        #expect(shown.all.isEmpty)
    }

    @Test func aChangeDuringTheMomentEndsIt() {
        var shown = IndicatorTimers()
        shown.changed(running())
        _ = shown.saved(id, minutes: 97, now: now)
        shown.changed(running())
        #expect(shown.nextMomentEnd == nil)
        #expect(shown.all == [running()])
    }

    @Test func theSavedMomentLastsAsLongAsTheNotificationsSleepSavedAtMost() {
        #expect(IndicatorTimers.savedMoment == NotificationContent.transientTimeout + NotificationContent.ignoredTimeoutGrace)
        #expect(IndicatorTimers.savedMoment == NotificationContent.transientLifetime)
    }
}
