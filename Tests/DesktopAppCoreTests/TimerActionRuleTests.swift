import DesktopAppCore
import SleepTimerCore
import Testing

@Suite struct TimerActionRuleTests {
    static let timer = AppDeepLinkTests.timer
    static let link = AppDeepLinkTests.valid

    @Test func aTimersIDIsTakenInItsCanonicalForm() throws {
        #expect(try TimerActionRule.timerID(target: Self.timer.uppercased()).string == Self.timer)
    }

    @Test(arguments: ["", "not-a-uuid", "3f2504e0-4f89-41d3-9a0c-0305e82c330", "3f2504e0-4f89-41d3-9a0c-0305e82c3301\n",
                      "../3f2504e0-4f89-41d3-9a0c-0305e82c3301", "3f2504e0_4f89_41d3_9a0c_0305e82c3301"])
    func aTargetThatIsNotATimersIDIsRefused(target: String) {
        #expect(throws: TimerActionRule.Refusal.notATimerID) { try TimerActionRule.timerID(target: target) }
    }

    @Test func noTargetIsRefused() {
        #expect(throws: TimerActionRule.Refusal.noTimerID) { try TimerActionRule.timerID(target: nil) }
    }

    @Test func queuedIsRecorded() {
        #expect(TimerActionRule.completeOutcome(status: "queued", errorName: nil) == .queued)
    }

    @Test func aSecondCompleteOfTheSameTimerIsNotAnError() {
        #expect(TimerActionRule.completeOutcome(
            status: nil, errorName: "com.dreamsforlittles.SleepTimers1.Error.CannotComplete") == .alreadyCompleting)
    }

    @Test func aTimerNoLongerMirroredIsSaidSo() {
        #expect(TimerActionRule.completeOutcome(
            status: nil, errorName: "com.dreamsforlittles.SleepTimers1.Error.UnknownTimer") == .notMirrored)
    }

    @Test func otherErrorsAreFailuresWithTheirName() {
        #expect(TimerActionRule.completeOutcome(status: nil, errorName: "org.freedesktop.DBus.Error.ServiceUnknown")
            == .failed("org.freedesktop.DBus.Error.ServiceUnknown"))
        #expect(TimerActionRule.completeOutcome(
            status: nil, errorName: "com.dreamsforlittles.SleepTimers1.Error.StorageFailed")
            == .failed("com.dreamsforlittles.SleepTimers1.Error.StorageFailed"))
    }

    @Test func aCompleteOfATimerNoLongerHeldSaysItHasAlreadyEnded() {
        #expect(TimerActionRule.notice(after: .notMirrored) == .alreadyEnded)
    }

    @Test func aCompleteTakenOrAlreadyHeldShowsNothing() {
        #expect(TimerActionRule.notice(after: .queued) == nil)
        #expect(TimerActionRule.notice(after: .alreadyCompleting) == nil)
    }

    @Test func aFailedCompleteIsNotSaidToHaveEnded() {
        #expect(TimerActionRule.notice(after: .failed("org.freedesktop.DBus.Error.ServiceUnknown")) == nil)
    }

    @Test func anOpenOfATimerTheAgentDoesNotListTakesItsNotificationAway() {
        #expect(TimerActionRule.notice(afterOpenListed: false) == .withdrawn)
    }

    @Test func anOpenOfAListedTimerOrWithTheAgentNotReachedLeavesItsNotification() {
        #expect(TimerActionRule.notice(afterOpenListed: true) == nil)
        #expect(TimerActionRule.notice(afterOpenListed: nil) == nil)
    }

    @Test func anUnexpectedReplyIsAFailure() {
        #expect(TimerActionRule.completeOutcome(status: "done", errorName: nil) == .failed("an unexpected reply"))
    }

    @Test func theListedLinkOpensTheTimersRoute() throws {
        let id = try TimerActionRule.timerID(target: Self.timer)
        #expect(TimerActionRule.openSteps(for: id, deepLink: Self.link) == [.open(try AppDeepLink(parsing: Self.link))])
    }

    @Test func aTimerNotListedLeavesTheWindowOnTheStart() throws {
        let id = try TimerActionRule.timerID(target: Self.timer)
        #expect(TimerActionRule.openSteps(for: id, deepLink: nil) == [.showWindow])
    }

    @Test func aListedLinkToAnotherTimerIsNotFollowed() throws {
        let id = try TimerActionRule.timerID(target: "9b2e4c6a-8d1f-4a3b-9c5e-7f1a2b3c4d5e")
        #expect(TimerActionRule.openSteps(for: id, deepLink: Self.link) == [.showWindow])
    }

    @Test func aListedLinkIsReadAsOpenReadsOneAndABadOneIsRefused() throws {
        let id = try TimerActionRule.timerID(target: Self.timer)
        #expect(TimerActionRule.openSteps(for: id, deepLink: "https://evil.example/families/x") == [.refuse(.notTheAppsScheme)])
        #expect(TimerActionRule.openSteps(for: id, deepLink: Self.link + "&next=https://evil.example")
            == [.refuse(.notASleepLink)])
    }

    /// The id read at the edge is carried typed into the log lines, which
    /// write it in its canonical form.
    @Test func theLogNamesTheTimerByItsCanonicalID() throws {
        let id = try TimerActionRule.timerID(target: Self.timer.uppercased())
        #expect(AppLogText.completing(id, "com.dreamsforlittles.DreamsForLittles.SleepTimers1")
            == "Completing timer \(Self.timer) from the notification: asking the agent at com.dreamsforlittles.DreamsForLittles.SleepTimers1.")
        #expect(AppLogText.completeOutcome(id, .queued) == "The agent recorded the completion of timer \(Self.timer) and sends it.")
        #expect(AppLogText.openingTimer(id) == "Opening timer \(Self.timer) from the notification.")
        #expect(AppLogText.timerNotListed(id).hasPrefix("Timer \(Self.timer) has no link"))
    }
}
