import AgentWorkflows
import DFLTestSupport
import SleepTimerCore
import Testing

@Suite struct NotificationPlanTests {
    typealias F = WorkflowFixtures
    let now = F.now
    let settings = NotificationPlan.Settings(liveElapsed: .auto, timeFormat: .twentyFourHour)

    func plan(records: [TimerID: NotificationRecord] = [:], zones: any TimeZoneResolving = UTCZones()) -> NotificationPlan {
        NotificationPlan(settings: settings, timeZones: zones, records: records)
    }

    /// A plan with `server` on the bus and `timers` shown (and their ids
    /// given), the actions of that set-up left behind.
    func showing(_ timers: [StoredTimer], on server: NotificationServer = F.xfce, live: LiveElapsedMode = .auto) -> NotificationPlan {
        var plan = NotificationPlan(settings: .init(liveElapsed: live, timeFormat: .twentyFourHour), timeZones: UTCZones())
        _ = plan.handle(.serverChanged(server, timers: timers, now: now))
        for (index, timer) in timers.enumerated() {
            _ = plan.handle(.shown(timer.timer.id, notificationID: UInt32(40 + index), now: now))
        }
        return plan
    }

    func shows(_ actions: [NotificationPlan.Action]) -> [NotificationContent] {
        actions.compactMap { if case .show(_, let content, _) = $0 { content } else { nil } }
    }

    // MARK: The server

    @Test func aServerGetsEveryTimerAndEachStatusOnce() {
        var plan = plan()
        let actions = plan.handle(.serverChanged(F.xfce, timers: [F.timer(1), F.timer(2, name: "Noah")], now: now))
        #expect(actions.first == .dropAll)
        #expect(shows(actions).map(\.summary) == ["Maya is asleep", "Noah is asleep"])
        #expect(actions.filter { if case .statusChanged = $0 { true } else { false } }.count == 2)
        #expect(plan.status(of: F.id(1)) == .shown)
    }

    @Test func theRunningTextHasTheStartTheElapsedTimeAndComplete() {
        var plan = plan()
        let content = shows(plan.handle(.serverChanged(F.xfce, timers: [F.timer()], now: now))).first
        #expect(content == NotificationContent(
            summary: "Maya is asleep", body: "Asleep since 20:17 · 1 h 23 min", actions: [.open, .complete], persistent: true))
    }

    @Test func aRestartedAgentReplacesItsOwnNotificationOnTheSameServer() {
        var plan = plan(records: [F.id(1): NotificationRecord(notificationID: 17, dismissedInState: nil, serverOwner: ":1.7")])
        let actions = plan.handle(.serverChanged(F.xfce, timers: [F.timer()], now: now))
        #expect(actions.contains { if case .show(_, _, replacing: 17) = $0 { true } else { false } })
    }

    @Test func anIdOfAnotherServerIsNeverReused() {
        var plan = plan(records: [F.id(1): NotificationRecord(notificationID: 17, dismissedInState: nil, serverOwner: ":1.2")])
        let actions = plan.handle(.serverChanged(F.xfce, timers: [F.timer()], now: now))
        #expect(actions.contains { if case .show(_, _, replacing: 0) = $0 { true } else { false } })
    }

    @Test func noServerShowsNothingAndSaysSo() {
        var plan = showing([F.timer()])
        let actions = plan.handle(.serverChanged(nil, timers: [F.timer()], now: now))
        #expect(actions == [.dropAll, .statusChanged(F.id(1))])
        #expect(plan.status(of: F.id(1)) == .unavailable)
        #expect(plan.wakeAt == nil)
    }

    @Test func aTimerInAZoneThatCannotBeReadIsNotShown() {
        var plan = plan(zones: NoZones())
        #expect(plan.handle(.serverChanged(F.xfce, timers: [F.timer()], now: now)) == [.dropAll, .statusChanged(F.id(1))])
    }

    // MARK: Changes

    @Test func aNewTimerIsPostedAndItsStatusAnnounced() {
        var plan = showing([])
        let actions = plan.handle(.timerChanged(F.timer(), now: now))
        #expect(shows(actions).count == 1)
        #expect(actions.last == .statusChanged(F.id(1)))
    }

    @Test func nothingIsShownWithoutAServer() {
        var plan = plan()
        #expect(plan.handle(.timerChanged(F.timer(), now: now)).isEmpty)
    }

    @Test func theSameTextIsNotSentAgain() {
        var plan = showing([F.timer()])
        #expect(plan.handle(.timerChanged(F.timer(), now: now)).isEmpty)
    }

    @Test func savingUpdatesInPlace() {
        var plan = showing([F.timer()])
        let actions = plan.handle(.timerChanged(F.timer(completion: .pending), now: now))
        #expect(actions == [.show(F.id(1), NotificationContent(summary: "Maya's sleep", body: "Saving…", actions: [], persistent: true), replacing: 0)])
    }

    @Test func savingAfterAFailedAttemptSaysItWaitsForTheNetwork() {
        var plan = showing([F.timer()])
        let body = shows(plan.handle(.timerChanged(F.timer(completion: .pending, attempts: 1), now: now))).first?.body
        #expect(body == "Saving… It will save when you are back online.")
    }

    @Test func aFailedCompletionOffersOpenOnly() {
        var plan = showing([F.timer()])
        let content = shows(plan.handle(.timerChanged(F.timer(completion: .needsApp), now: now))).first
        #expect(content?.body == "Couldn't save. Open the app to finish")
        #expect(content?.actions == [.open])
    }

    @Test func anExpiredTokenTakesCompleteAway() {
        var plan = showing([])
        let content = shows(plan.handle(.timerChanged(F.timer(expiresAt: now), now: now))).first
        #expect(content?.actions == [.open])
        #expect(content?.body.hasSuffix("\nOpen the app to finish it.") == true)
    }

    @Test func aServerWithoutButtonsIsToldToOpenTheApp() {
        var plan = showing([], on: F.plain)
        let content = shows(plan.handle(.timerChanged(F.timer(), now: now))).first
        #expect(content?.actions == [])
        #expect(content?.body.hasSuffix("\nOpen the app to complete it.") == true)
    }

    @Test func aRemovedTimersNotificationIsClosed() {
        var plan = showing([F.timer()])
        #expect(plan.handle(.timerRemoved(F.id(1))) == [.close(F.id(1))])
        #expect(plan.handle(.timerRemoved(F.id(1))).isEmpty)
    }

    // MARK: The server's answers

    @Test func theGivenIdIsKeptOnceAndNotRewrittenOnEveryUpdate() {
        var plan = plan()
        _ = plan.handle(.serverChanged(F.xfce, timers: [F.timer()], now: now))
        let record = NotificationRecord(notificationID: 40, dismissedInState: nil, serverOwner: ":1.7")
        #expect(plan.handle(.shown(F.id(1), notificationID: 40, now: now)) == [.saveRecord(F.id(1), record)])
        #expect(plan.handle(.shown(F.id(1), notificationID: 40, now: now)).isEmpty)
    }

    @Test func aNotificationTheServerRefusedIsDroppedAndSaid() {
        var plan = plan()
        _ = plan.handle(.serverChanged(F.xfce, timers: [F.timer()], now: now))
        let actions = plan.handle(.showFailed(F.id(1), reason: "no reply", now: now))
        #expect(actions == [
            .drop(F.id(1)), .log(.warning, "Could not show the notification of timer \(F.id(1)): no reply"), .statusChanged(F.id(1)),
        ])
        #expect(plan.status(of: F.id(1)) == .unavailable)
    }

    @Test func aNotificationTheServerRefusedIsOfferedAgainLater() {
        var plan = plan()
        _ = plan.handle(.serverChanged(F.xfce, timers: [F.timer()], now: now))
        _ = plan.handle(.showFailed(F.id(1), reason: "no reply", now: now))
        let again = now + NotificationPlan.retryAfterFailure
        #expect(plan.wakeAt == again)
        let actions = plan.handle(.wake(now: again))
        #expect(shows(actions).map(\.summary) == ["Maya is asleep"])
        #expect(plan.status(of: F.id(1)) == .shown)
    }

    @Test func aTimerThatLeftIsNotOfferedAgain() {
        var plan = plan()
        _ = plan.handle(.serverChanged(F.xfce, timers: [F.timer()], now: now))
        _ = plan.handle(.showFailed(F.id(1), reason: "no reply", now: now))
        _ = plan.handle(.timerRemoved(F.id(1)))
        #expect(plan.wakeAt == nil)
    }

    @Test func aDismissalIsKeptAndHonoured() {
        var plan = showing([F.timer()])
        let actions = plan.handle(.closed(F.id(1), reason: NotificationCloseReason.dismissedByUser, now: now))
        #expect(actions.first == .saveRecord(F.id(1), NotificationRecord(notificationID: 0, dismissedInState: "running:3:true")))
        #expect(actions.last == .statusChanged(F.id(1)))
        #expect(plan.status(of: F.id(1)) == .dismissed)
        #expect(plan.handle(.timerChanged(F.timer(), now: now.plus(seconds: 60))).isEmpty)
    }

    @Test func aDismissalEndsWhenTheTimerChanges() {
        var plan = showing([F.timer()])
        _ = plan.handle(.closed(F.id(1), reason: NotificationCloseReason.dismissedByUser, now: now.plus(seconds: 1)))
        let actions = plan.handle(.timerChanged(F.timer(revision: 4), now: now.plus(seconds: 2)))
        #expect(actions.first == .saveRecord(F.id(1), NotificationRecord(notificationID: 0, dismissedInState: nil)))
        #expect(shows(actions).count == 1)
    }

    @Test func aCloseTheAgentAskedForIsNoDismissal() {
        var plan = showing([F.timer()])
        #expect(plan.handle(.closed(F.id(1), reason: NotificationCloseReason.closedByCall, now: now)) == [.statusChanged(F.id(1))])
        #expect(plan.status(of: F.id(1)) == .unavailable)
    }

    @Test func aCloseAfterAClickShowsTheTimerAgain() {
        var plan = showing([F.timer()])
        #expect(plan.handle(.actionInvoked(F.id(1), .complete, activationToken: nil)) == [.complete(F.id(1))])
        _ = plan.handle(.timerChanged(F.timer(completion: .pending), now: now))
        let actions = plan.handle(.closed(F.id(1), reason: NotificationCloseReason.dismissedByUser, now: now.plus(seconds: 2)))
        #expect(shows(actions).map(\.body) == ["Saving…"])
        #expect(!actions.contains { if case .saveRecord = $0 { true } else { false } })
    }

    @Test func openCarriesTheActivationToken() {
        var plan = showing([F.timer()])
        #expect(plan.handle(.actionInvoked(F.id(1), .open, activationToken: "tok")) == [.open(F.id(1), activationToken: "tok")])
    }

    @Test func theOpenButtonOpensAsTheBodysClickDoes() {
        var plan = showing([F.timer()])
        #expect(plan.handle(.actionInvoked(F.id(1), .openButton, activationToken: "tok"))
            == [.open(F.id(1), activationToken: "tok")])
    }

    @Test func anActionOnANotificationNoLongerShownDoesNothing() {
        var plan = showing([F.timer()])
        _ = plan.handle(.timerRemoved(F.id(1)))
        #expect(plan.handle(.actionInvoked(F.id(1), .complete, activationToken: nil)).isEmpty)
    }

    // MARK: Saved

    @Test func aSavedSleepSaysGoodbyeAndClosesItselfLater() {
        var plan = showing([F.timer()])
        let actions = plan.handle(.saved(F.id(1), sleptMinutes: 83, now: now))
        #expect(actions == [.show(F.id(1), NotificationContent(
            summary: "Maya's sleep", body: "Sleep saved · 1 h 23 min", actions: [], persistent: false), replacing: 0)])
        // The timer's removal that follows leaves the farewell on screen.
        #expect(plan.handle(.timerRemoved(F.id(1))).isEmpty)
        _ = plan.handle(.shown(F.id(1), notificationID: 40, now: now))
        let closeAt = now.adding(NotificationContent.transientTimeout + NotificationContent.ignoredTimeoutGrace)
        #expect(plan.wakeAt == closeAt)
        #expect(plan.handle(.wake(now: closeAt)) == [.close(F.id(1))])
        #expect(plan.wakeAt == nil)
    }

    @Test func aFarewellTheServerClosedNeedsNoWakeUp() {
        var plan = showing([F.timer()])
        _ = plan.handle(.saved(F.id(1), sleptMinutes: 83, now: now))
        _ = plan.handle(.shown(F.id(1), notificationID: 40, now: now))
        #expect(plan.handle(.closed(F.id(1), reason: NotificationCloseReason.expired, now: now)).isEmpty)
        #expect(plan.wakeAt == nil)
    }

    @Test func aSavedSleepWithNothingShownShowsNothing() {
        var plan = showing([])
        #expect(plan.handle(.saved(F.id(1), sleptMinutes: 5, now: now)).isEmpty)
    }

    // MARK: Minute boundaries

    @Test func theNextWakeUpIsTheNextMinuteOfTheStart() {
        let plan = showing([F.timer()])
        #expect(plan.wakeAt == now.plus(seconds: 40))
    }

    @Test func aMinuteBoundaryMovesTheElapsedTimeOn() {
        var plan = showing([F.timer()])
        let actions = plan.handle(.wake(now: now.plus(seconds: 40)))
        #expect(shows(actions).map(\.body) == ["Asleep since 20:17 · 1 h 24 min"])
        #expect(plan.wakeAt == now.plus(seconds: 100))
    }

    @Test func onlyTheTimersWhoseBoundaryCameAreRefreshed() {
        var plan = showing([F.timer(1), F.timer(2, name: "Noah", startedAt: now.plus(seconds: -10))])
        #expect(plan.wakeAt == now.plus(seconds: 40))
        #expect(shows(plan.handle(.wake(now: now.plus(seconds: 40)))).map(\.summary) == ["Maya is asleep"])
        #expect(plan.wakeAt == now.plus(seconds: 50))
    }

    @Test func aSetClockRemakesEveryTextForTheTimeItIsNow() {
        var plan = showing([F.timer(1), F.timer(2, name: "Noah", startedAt: now.plus(seconds: -10))])
        let later = now.plus(seconds: 3 * 3600)
        let actions = plan.handle(.clockChanged(now: later))
        #expect(shows(actions).map(\.body).sorted() == ["Asleep since 20:17 · 4 h 23 min", "Asleep since 21:40 · 3 h"])
        #expect(plan.wakeAt == later.plus(seconds: 40))
    }

    @Test func timersSharingABoundaryAreRefreshedInOneWakeUp() {
        var plan = showing([F.timer(1), F.timer(2, name: "Noah")])
        #expect(shows(plan.handle(.wake(now: now.plus(seconds: 40)))).count == 2)
    }

    @Test func aServerThatAlertsOnEveryUpdateGetsNoLiveUpdates() {
        #expect(showing([F.timer()], on: F.gnome).wakeAt == nil)
    }

    @Test func textNotUpdatedInPlaceCarriesNoElapsedTime() {
        var plan = NotificationPlan(settings: settings, timeZones: UTCZones())
        let content = shows(plan.handle(.serverChanged(F.gnome, timers: [F.timer()], now: now))).first
        #expect(content?.body == "Asleep since 20:17")
    }

    @Test func liveUpdatesWhereTheConfigurationSaysOn() {
        #expect(showing([F.timer()], on: F.gnome, live: .on).wakeAt == now.plus(seconds: 40))
    }

    @Test func aSavingTimerNeedsNoMinuteBoundary() {
        var plan = showing([F.timer()])
        _ = plan.handle(.timerChanged(F.timer(completion: .pending), now: now))
        #expect(plan.wakeAt == nil)
    }

    @Test func theStateKeyKeepsItsStoredForm() {
        #expect(NotificationPlan.stateKey(F.timer(revision: 9), now: now) == "running:9:true")
        #expect(NotificationPlan.stateKey(F.timer(completion: .failed), now: now) == "save-failed:3:false")
    }

    // MARK: Urgency where an update pops up again

    func urgencies(_ actions: [NotificationPlan.Action]) -> [NotificationUrgency] { shows(actions).map(\.urgency) }

    /// Whether GNOME 48 would pop these actions up, by its rule: a replace
    /// unless the urgency the notification held was low, a new notification
    /// unless its own is. `held` is the urgency on screen before them.
    func popsUp(_ actions: [NotificationPlan.Action], held: NotificationUrgency?) -> [Bool] {
        var held = held
        var pops: [Bool] = []
        for command in actions {
            switch command {
            case .close: held = nil
            case .show(_, let content, _):
                pops.append(held.map { $0 != .low } ?? (content.urgency != .low))
                held = content.urgency
            default: break
            }
        }
        return pops
    }

    @Test func onGnome46AndLaterAnUpdateThatIsNoNewsGoesLowAndAsANewNotification() {
        var plan = showing([F.timer()], on: F.gnome48)
        let actions = plan.handle(.timerChanged(F.timer(completion: .pending), now: now))
        // The first show held normal, so a replace would pop up: the low
        // one is posted anew instead.
        #expect(actions.first == .close(F.id(1)))
        #expect(urgencies(actions) == [.low])
        #expect(popsUp(actions, held: .normal) == [false])
        // Held low now: the next change replaces it in place, quietly.
        let saved = plan.handle(.saved(F.id(1), sleptMinutes: 83, now: now.plus(seconds: 5)))
        #expect(saved.count == 1)
        #expect(popsUp(saved, held: .low) == [false])
    }

    @Test func theFirstShowStaysNormalAndPopsUp() {
        var plan = plan()
        let actions = plan.handle(.serverChanged(F.gnome48, timers: [F.timer()], now: now))
        #expect(urgencies(actions) == [.normal])
        #expect(popsUp(actions, held: nil) == [true])
    }

    @Test func aRenewedTokenARenameAndTheMinuteAreNoNews() {
        var plan = showing([F.timer(expiresAt: now)], on: F.gnome48, live: .on)
        var held: NotificationUrgency = .normal
        for event: NotificationPlan.Event in [
            .timerChanged(F.timer(revision: 4), now: now), .timerChanged(F.timer(name: "Maya Rose", revision: 5), now: now),
            .wake(now: now.plus(seconds: 40)),
        ] {
            let actions = plan.handle(event)
            #expect(urgencies(actions) == [.low])
            #expect(popsUp(actions, held: held) == [false])
            held = .low
        }
    }

    @Test func aSleepThatCannotBeSavedIsNewsAndPopsUpAgain() {
        var plan = showing([F.timer()], on: F.gnome48)
        _ = plan.handle(.timerChanged(F.timer(completion: .pending), now: now))
        let failed = plan.handle(.timerChanged(F.timer(completion: .needsApp), now: now.plus(seconds: 5)))
        #expect(urgencies(failed) == [.normal])
        #expect(failed.first == .close(F.id(1)))
        #expect(popsUp(failed, held: .low) == [true])
        #expect(NotificationPlan.isNews(.failed, after: .saving(waitingForNetwork: false)))
        #expect(!NotificationPlan.isNews(.failed, after: .failed))
        #expect(!NotificationPlan.isNews(.saving(waitingForNetwork: true), after: .running(canComplete: true)))
        #expect(!NotificationPlan.isNews(.running(canComplete: true), after: .running(canComplete: false)))
    }

    @Test func newsOnANormalNotificationIsAReplace() {
        var plan = showing([F.timer()], on: F.gnome48)
        let failed = plan.handle(.timerChanged(F.timer(completion: .needsApp), now: now))
        #expect(failed.count == 1)
        #expect(popsUp(failed, held: .normal) == [true])
    }

    @Test func onlyTheUrgencyChangingSendsNothing() {
        // Shown normal; the same text again on GNOME 48 would only lower it.
        var plan = showing([F.timer()], on: F.gnome48)
        #expect(plan.handle(.timerChanged(F.timer(revision: 4), now: now)).isEmpty)
    }

    @Test func gnome43XfceAndDunstKeepTheUrgencyTheyHadOnAnUpdateAndReplaceInPlace() {
        for server in [F.gnome, F.xfce, F.plain] {
            var plan = showing([F.timer()], on: server)
            let actions = plan.handle(.timerChanged(F.timer(completion: .pending), now: now))
            #expect(urgencies(actions) == [.normal])
            #expect(actions.count == 1)
        }
    }

    @Test func theFarewellIsLowEverywhereAndOnGnome48NoBanner() {
        for server in [F.gnome48, F.gnome, F.xfce] {
            var plan = showing([F.timer()], on: server)
            let actions = plan.handle(.saved(F.id(1), sleptMinutes: 83, now: now))
            #expect(urgencies(actions) == [.low])
            if server == F.gnome48 { #expect(popsUp(actions, held: .normal) == [false]) }
        }
    }

    // MARK: The same text within a second

    @Test func theSameTextIsNotSentAgainWithinASecondButASecondLater() {
        var plan = showing([F.timer()])
        // A click, then the server closes it (xfce4-notifyd ignores resident):
        // shown again, with the text it had a moment before.
        _ = plan.handle(.actionInvoked(F.id(1), .open, activationToken: nil))
        #expect(NotificationPlan.repeatInterval > .milliseconds(1000))
        let soon = now.adding(milliseconds: 300)
        let actions = plan.handle(.closed(F.id(1), reason: NotificationCloseReason.dismissedByUser, now: soon))
        #expect(shows(actions).isEmpty)
        #expect(actions.last == .statusChanged(F.id(1)))
        let free = now + NotificationPlan.repeatInterval
        #expect(plan.wakeAt == free)
        #expect(plan.handle(.wake(now: now + (NotificationPlan.repeatInterval - .milliseconds(1)))).isEmpty)
        #expect(shows(plan.handle(.wake(now: free))).map(\.summary) == ["Maya is asleep"])
        #expect(plan.wakeAt == now.plus(seconds: 40))
    }

    @Test func savingThenSavedIsNoRepeat() {
        var plan = showing([F.timer()])
        _ = plan.handle(.timerChanged(F.timer(completion: .pending), now: now))
        #expect(shows(plan.handle(.saved(F.id(1), sleptMinutes: 83, now: now.adding(milliseconds: 10)))).count == 1)
    }

    @Test func aHeldRepeatGoesWithTheNotification() {
        var plan = showing([F.timer()])
        _ = plan.handle(.actionInvoked(F.id(1), .open, activationToken: nil))
        _ = plan.handle(.closed(F.id(1), reason: NotificationCloseReason.dismissedByUser, now: now.adding(milliseconds: 300)))
        _ = plan.handle(.timerRemoved(F.id(1)))
        #expect(plan.wakeAt == nil)
        #expect(plan.handle(.wake(now: now.plus(seconds: 2))).isEmpty)
    }

    @Test func aChangeWhileHeldIsSentAtOnce() {
        var plan = showing([F.timer()])
        _ = plan.handle(.actionInvoked(F.id(1), .open, activationToken: nil))
        _ = plan.handle(.closed(F.id(1), reason: NotificationCloseReason.dismissedByUser, now: now.adding(milliseconds: 300)))
        let actions = plan.handle(.timerChanged(F.timer(completion: .pending), now: now.adding(milliseconds: 400)))
        #expect(shows(actions).map(\.body) == ["Saving…"])
        #expect(plan.wakeAt == nil)
    }

    @Test func aRepostForAServerThatCameBackAtOnceWaitsItsSecond() {
        var plan = showing([F.timer()])
        _ = plan.handle(.serverChanged(nil, timers: [F.timer()], now: now))
        let replacement = NotificationServer(owner: ":1.8", displayName: F.xfce.displayName, traits: F.xfce.traits)
        let actions = plan.handle(.serverChanged(replacement, timers: [F.timer()], now: now.adding(milliseconds: 200)))
        #expect(shows(actions).isEmpty)
        #expect(plan.status(of: F.id(1)) == .shown)
        #expect(shows(plan.handle(.wake(now: (now + NotificationPlan.repeatInterval)))).count == 1)
    }

    // MARK: Do Not Disturb

    @Test func aNotificationTheServerPutAwayIsNoDismissal() {
        var plan = showing([F.timer()])
        let actions = plan.handle(.closed(F.id(1), reason: NotificationCloseReason.undefined, now: now))
        #expect(!actions.contains { if case .saveRecord = $0 { true } else { false } })
        #expect(shows(actions).isEmpty)
        #expect(actions.last == .statusChanged(F.id(1)))
        #expect(plan.status(of: F.id(1)) == .unavailable)
        #expect(plan.wakeAt == nil)
    }

    @Test func duringDoNotDisturbWhatIsShownOffersNoButtonsAndAfterItCompleteIsBack() {
        var plan = showing([F.timer()])
        // xfce4-notifyd closes what it shows when Do Not Disturb begins.
        _ = plan.handle(.closed(F.id(1), reason: NotificationCloseReason.undefined, now: now))
        let during = plan.handle(.serverChanged(F.xfceDoNotDisturb, timers: [F.timer()], now: now.plus(seconds: 1)))
        #expect(!during.contains(.dropAll))
        #expect(shows(during).map(\.actions) == [[]])
        #expect(shows(during).first?.body.hasSuffix("\nOpen the app to complete it.") == true)
        // ... and every notification that comes during it.
        _ = plan.handle(.closed(F.id(1), reason: NotificationCloseReason.undefined, now: now.plus(seconds: 1)))
        let after = plan.handle(.serverChanged(F.xfce, timers: [F.timer()], now: now.plus(seconds: 5)))
        #expect(shows(after).map(\.actions) == [[.open, .complete]])
        #expect(after.last == .statusChanged(F.id(1)))
        #expect(plan.status(of: F.id(1)) == .shown)
    }

    @Test func theSameServerWithOtherTraitsUpdatesInPlace() {
        var plan = showing([F.timer()])
        let actions = plan.handle(.serverChanged(F.xfceDoNotDisturb, timers: [F.timer()], now: now))
        #expect(actions.count == 1)
        #expect(actions.first.map { if case .show(_, let content, replacing: 0) = $0 { content.actions == [] } else { false } } == true)
    }

    @Test func aDismissalHoldsThroughDoNotDisturb() {
        var plan = showing([F.timer()])
        _ = plan.handle(.closed(F.id(1), reason: NotificationCloseReason.dismissedByUser, now: now))
        #expect(shows(plan.handle(.serverChanged(F.xfceDoNotDisturb, timers: [F.timer()], now: now))).isEmpty)
        #expect(shows(plan.handle(.serverChanged(F.xfce, timers: [F.timer()], now: now))).isEmpty)
        #expect(plan.status(of: F.id(1)) == .dismissed)
    }

    @Test func theCloseReasonsAreTheSpecificationsNumbers() {
        #expect(NotificationCloseReason.expired == 1)
        #expect(NotificationCloseReason.dismissedByUser == 2)
        #expect(NotificationCloseReason.closedByCall == 3)
        #expect(NotificationCloseReason.undefined == 4)
    }

    // MARK: Edges

    @Test func withoutAServerADismissedTimerIsUnavailable() {
        let plan = plan(records: [F.id(1): NotificationRecord(notificationID: 0, dismissedInState: "running:3:true")])
        #expect(plan.status(of: F.id(1)) == .unavailable)
    }

    @Test func aClockSetBackRemakesTheTextBeforeItsBoundary() {
        var plan = showing([F.timer()])
        let actions = plan.handle(.clockChanged(now: now.plus(seconds: -60)))
        #expect(shows(actions).map(\.body) == ["Asleep since 20:17 · 1 h 22 min"])
    }

    @Test func aNewTimeFormatRemakesTheTextBeforeItsBoundary() {
        var plan = showing([F.timer()])
        let actions = plan.handle(.settingsChanged(.init(liveElapsed: .auto, timeFormat: .twelveHour), now: now.plus(seconds: 5)))
        let bodies = shows(actions).map(\.body)
        #expect(bodies.count == 1)
        #expect(bodies.first != "Asleep since 20:17 · 1 h 23 min")
    }

    @Test func aFarewellTheServerRefusedIsDroppedAndSaid() {
        var plan = showing([F.timer()])
        _ = plan.handle(.saved(F.id(1), sleptMinutes: 83, now: now))
        #expect(plan.handle(.showFailed(F.id(1), reason: "no reply", now: now))
            == [.drop(F.id(1)), .log(.warning, "Could not show that the sleep was saved: no reply")])
    }

    @Test func aCloseAfterAClickAnnouncesTheStatusOnce() {
        var plan = showing([F.timer()])
        _ = plan.handle(.actionInvoked(F.id(1), .complete, activationToken: nil))
        let actions = plan.handle(.closed(F.id(1), reason: NotificationCloseReason.dismissedByUser, now: now.plus(seconds: 2)))
        #expect(shows(actions).count == 1)
        #expect(actions.filter { $0 == .statusChanged(F.id(1)) }.count == 1)
    }

    @Test func aRefusedNotificationIsNotOfferedAgainBeforeItsWait() {
        var plan = plan()
        _ = plan.handle(.serverChanged(F.xfce, timers: [F.timer()], now: now))
        _ = plan.handle(.showFailed(F.id(1), reason: "no reply", now: now))
        #expect(plan.handle(.wake(now: now.plus(seconds: 1))).isEmpty)
        #expect(plan.wakeAt == now + NotificationPlan.retryAfterFailure)
    }
}
