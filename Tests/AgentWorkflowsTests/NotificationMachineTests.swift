@testable import AgentWorkflows
import DFLTestSupport
import SleepTimerCore
import Testing

@Suite struct NotificationMachineTests {
    typealias F = WorkflowFixtures
    let now = F.now
    let settings = NotificationMachine.Settings(liveElapsed: .auto, timeFormat: .twentyFourHour)

    func machine(records: [TimerID: NotificationRecord] = [:], zones: any TimeZoneResolving = UTCZones()) -> NotificationMachine {
        NotificationMachine(settings: settings, timeZones: zones, records: records)
    }

    /// A machine with `server` on the bus and `timers` shown (and their ids
    /// given), the actions of that set-up left behind.
    func showing(_ timers: [StoredTimer], on server: NotificationServer = F.xfce, live: LiveElapsedMode = .auto) -> NotificationMachine {
        var machine = NotificationMachine(settings: .init(liveElapsed: live, timeFormat: .twentyFourHour), timeZones: UTCZones())
        _ = machine.serverChanged(server, timers: timers, now: now)
        for (index, timer) in timers.enumerated() {
            _ = machine.shown(timer.timer.id, notificationID: UInt32(40 + index), now: now)
        }
        return machine
    }

    func shows(_ actions: [NotificationMachine.Action]) -> [NotificationContent] {
        actions.compactMap(\.shownContent)
    }

    // MARK: The server

    @Test func aServerGetsEveryTimerAndEachStatusOnce() {
        var machine = machine()
        let actions = machine.serverChanged(F.xfce, timers: [F.timer(1), F.timer(2, name: "Noah")], now: now)
        #expect(actions.first == .dropAll)
        #expect(shows(actions).map(\.summary) == ["Maya is asleep", "Noah is asleep"])
        #expect(actions.filter { if case .statusChanged = $0 { true } else { false } }.count == 2)
        #expect(machine.status(of: F.id(1)) == .shown)
    }

    @Test func theRunningTextHasTheStartTheElapsedTimeAndComplete() {
        var machine = machine()
        let content = shows(machine.serverChanged(F.xfce, timers: [F.timer()], now: now)).first
        #expect(content == NotificationContent(
            summary: "Maya is asleep", body: "Asleep since 20:17 · 1 h 23 min", actions: [.open, .complete], persistent: true))
    }

    @Test func aRestartedAgentReplacesItsOwnNotificationOnTheSameServer() {
        var machine = machine(records: [F.id(1): NotificationRecord(notificationID: 17, dismissedInState: nil, serverOwner: ":1.7")])
        let actions = machine.serverChanged(F.xfce, timers: [F.timer()], now: now)
        #expect(actions.contains { if case .show(_, _, replacing: 17) = $0 { true } else { false } })
    }

    @Test func anIdOfAnotherServerIsNeverReused() {
        var machine = machine(records: [F.id(1): NotificationRecord(notificationID: 17, dismissedInState: nil, serverOwner: ":1.2")])
        let actions = machine.serverChanged(F.xfce, timers: [F.timer()], now: now)
        #expect(actions.contains { if case .show(_, _, replacing: 0) = $0 { true } else { false } })
    }

    @Test func noServerShowsNothingAndSaysSo() {
        var machine = showing([F.timer()])
        let actions = machine.serverChanged(nil, timers: [F.timer()], now: now)
        #expect(actions == [.dropAll, .statusChanged(F.id(1))])
        #expect(machine.status(of: F.id(1)) == .unavailable)
        #expect(machine.wakeAt == nil)
    }

    @Test func theStateHoldsTheServerNamedLast() {
        var machine = machine()
        #expect(machine.state == NotificationMachine.State())
        _ = machine.serverChanged(F.xfce, timers: [], now: now)
        #expect(machine.state.server == F.xfce)
        _ = machine.serverChanged(F.xfceDoNotDisturb, timers: [], now: now)
        #expect(machine.state.server == F.xfceDoNotDisturb)
        _ = machine.serverChanged(nil, timers: [], now: now)
        #expect(machine.state.server == nil)
    }

    @Test func aTimerInAZoneThatCannotBeReadIsNotShown() {
        var machine = machine(zones: NoZones())
        #expect(machine.serverChanged(F.xfce, timers: [F.timer()], now: now) == [.dropAll, .statusChanged(F.id(1))])
    }

    // MARK: Changes

    @Test func aNewTimerIsPostedAndItsStatusAnnounced() {
        var machine = showing([])
        let actions = machine.timerChanged(F.timer(), now: now)
        #expect(shows(actions).count == 1)
        #expect(actions.last == .statusChanged(F.id(1)))
    }

    @Test func nothingIsShownWithoutAServer() {
        var machine = machine()
        #expect(machine.timerChanged(F.timer(), now: now).isEmpty)
    }

    @Test func theSameTextIsNotSentAgain() {
        var machine = showing([F.timer()])
        #expect(machine.timerChanged(F.timer(), now: now).isEmpty)
    }

    @Test func savingUpdatesInPlace() {
        var machine = showing([F.timer()])
        let actions = machine.timerChanged(F.timer(completion: .pending), now: now)
        #expect(actions == [.show(F.id(1), NotificationContent(summary: "Maya's sleep", body: "Saving…", actions: [], persistent: true), replacing: 0)])
    }

    @Test func savingAfterAFailedAttemptSaysItWaitsForTheNetwork() {
        var machine = showing([F.timer()])
        let body = shows(machine.timerChanged(F.timer(completion: .pending, attempts: 1), now: now)).first?.body
        #expect(body == "Saving… It will save when you are back online.")
    }

    @Test func aFailedCompletionOffersOpenOnly() {
        var machine = showing([F.timer()])
        let content = shows(machine.timerChanged(F.timer(completion: .needsApp), now: now)).first
        #expect(content?.body == "Couldn't save. Open the app to finish")
        #expect(content?.actions == [.open])
    }

    @Test func anExpiredTokenTakesCompleteAway() {
        var machine = showing([])
        let content = shows(machine.timerChanged(F.timer(expiresAt: now), now: now)).first
        #expect(content?.actions == [.open])
        #expect(content?.body.hasSuffix("\nOpen the app to finish it.") == true)
    }

    @Test func aServerWithoutButtonsIsToldToOpenTheApp() {
        var machine = showing([], on: F.plain)
        let content = shows(machine.timerChanged(F.timer(), now: now)).first
        #expect(content?.actions == [])
        #expect(content?.body.hasSuffix("\nOpen the app to complete it.") == true)
    }

    @Test func aRemovedTimersNotificationIsClosedThenItsRecordForgotten() {
        var machine = showing([F.timer()])
        #expect(machine.timerRemoved(F.id(1)) == [.close(F.id(1)), .forgetRecord(F.id(1))])
        #expect(machine.timerRemoved(F.id(1)) == [])
    }

    @Test func aRemovedTimersDismissalIsForgottenWithNothingToClose() {
        let key = NotificationMachine.stateKey(F.timer(), now: now)
        var machine = machine(records: [F.id(1): NotificationRecord(notificationID: 0, dismissedInState: key)])
        _ = machine.serverChanged(F.xfce, timers: [F.timer()], now: now)
        #expect(machine.timerRemoved(F.id(1)) == [.forgetRecord(F.id(1))])
    }

    // MARK: What an earlier run left

    @Test func aNotificationLeftOnTheSameServerForATimerNoLongerHeldIsWithdrawn() {
        let left = NotificationRecord(notificationID: 41, dismissedInState: nil, serverOwner: F.xfce.owner)
        var machine = machine(records: [F.id(2): left])
        let actions = machine.serverChanged(F.xfce, timers: [F.timer(1)], now: now)
        #expect(actions.contains(.withdraw(F.id(2), notificationID: 41)))
        #expect(!actions.contains(.forgetRecord(F.id(2))))
        // Kept until the server answered.
        #expect(machine.state.records[F.id(2)] == left)
    }

    @Test func aHeldTimersNotificationIsReplacedNotWithdrawn() {
        let left = NotificationRecord(notificationID: 41, dismissedInState: nil, serverOwner: F.xfce.owner)
        var machine = machine(records: [F.id(1): left])
        let actions = machine.serverChanged(F.xfce, timers: [F.timer(1)], now: now)
        #expect(!actions.contains(.withdraw(F.id(1), notificationID: 41)))
        #expect(actions.contains { if case .show(F.id(1), _, replacing: 41) = $0 { return true }; return false })
    }

    @Test func aNotificationLeftOnAnotherServerIsForgotten() {
        let left = NotificationRecord(notificationID: 41, dismissedInState: nil, serverOwner: ":1.99")
        var machine = machine(records: [F.id(2): left])
        #expect(machine.serverChanged(F.xfce, timers: [], now: now) == [.dropAll, .forgetRecord(F.id(2))])
        #expect(machine.state.records[F.id(2)] == nil)
    }

    @Test func aServerRecordWithNoIdOrADismissalIsForgottenNotWithdrawn() {
        let noID = NotificationRecord(notificationID: 0, dismissedInState: nil, serverOwner: F.xfce.owner)
        let dismissed = NotificationRecord(notificationID: 41, dismissedInState: "running:1:true", serverOwner: F.xfce.owner)
        var machine = machine(records: [F.id(2): noID, F.id(3): dismissed])
        #expect(machine.serverChanged(F.xfce, timers: [], now: now) == [.dropAll, .forgetRecord(F.id(2)), .forgetRecord(F.id(3))])
    }

    @Test func aDismissalLeftForATimerNoLongerHeldIsForgotten() {
        let left = NotificationRecord(notificationID: 0, dismissedInState: "running:1:true")
        var machine = machine(records: [F.id(2): left])
        #expect(machine.serverChanged(F.portal, timers: [], now: now) == [.dropAll, .forgetRecord(F.id(2))])
    }

    @Test func aPortalNotificationLeftIsWithdrawnByTheTimersIDWhateverThePortalsOwner() {
        let left = NotificationRecord(notificationID: 0, dismissedInState: nil, serverOwner: ":1.99")
        var machine = machine(records: [F.id(2): left])
        #expect(machine.serverChanged(F.portal, timers: [], now: now) == [.dropAll, .withdraw(F.id(2), notificationID: 0)])
    }

    @Test func aTimerRemovedWhileNoServerIsThereIsWithdrawnWhenOneComes() {
        var machine = showing([F.timer()], on: F.portal)
        _ = machine.serverChanged(nil, timers: [F.timer()], now: now)
        #expect(machine.timerRemoved(F.id(1)) == [])
        #expect(machine.serverChanged(F.portal, timers: [], now: now) == [.dropAll, .withdraw(F.id(1), notificationID: 40)])
    }

    @Test func nothingIsWithdrawnWhileNoServerIsThere() {
        let left = NotificationRecord(notificationID: 41, dismissedInState: nil, serverOwner: F.xfce.owner)
        var machine = machine(records: [F.id(2): left])
        #expect(machine.serverChanged(nil, timers: [], now: now) == [.dropAll])
        #expect(machine.state.records[F.id(2)] == left)
    }

    @Test func aWithdrawalAnsweredForgetsTheRecordOnce() {
        let left = NotificationRecord(notificationID: 41, dismissedInState: nil, serverOwner: F.xfce.owner)
        var machine = machine(records: [F.id(2): left])
        _ = machine.serverChanged(F.xfce, timers: [], now: now)
        #expect(machine.withdrawn(F.id(2)) == [
            .log(.info, "Took away the notification an earlier run left for timer \(F.id(2)), which is no longer held."),
            .forgetRecord(F.id(2)),
        ])
        #expect(machine.withdrawn(F.id(2)).isEmpty)
    }

    @Test func aWithdrawalAnsweredWhileTheTimersFarewellShowsKeepsItsRecord() {
        let left = NotificationRecord(notificationID: 41, dismissedInState: nil, serverOwner: F.xfce.owner)
        var machine = machine(records: [F.id(1): left])
        _ = machine.serverChanged(F.xfce, timers: [], now: now)
        _ = machine.timerChanged(F.timer(1), now: now)
        _ = machine.saved(F.id(1), sleptMinutes: 83, now: now)
        #expect(machine.withdrawn(F.id(1)).isEmpty)
        #expect(machine.state.records[F.id(1)] == left)
    }

    @Test func aWithdrawalAnsweredAfterTheTimerCameBackKeepsItsRecord() {
        let left = NotificationRecord(notificationID: 41, dismissedInState: nil, serverOwner: F.xfce.owner)
        var machine = machine(records: [F.id(1): left])
        _ = machine.serverChanged(F.xfce, timers: [], now: now)
        _ = machine.timerChanged(F.timer(1), now: now)
        #expect(machine.withdrawn(F.id(1)).isEmpty)
        #expect(machine.state.records[F.id(1)] == left)
    }

    // MARK: The server's answers

    @Test func theGivenIdIsKeptOnceAndNotRewrittenOnEveryUpdate() {
        var machine = machine()
        _ = machine.serverChanged(F.xfce, timers: [F.timer()], now: now)
        let record = NotificationRecord(notificationID: 40, dismissedInState: nil, serverOwner: ":1.7")
        #expect(machine.shown(F.id(1), notificationID: 40, now: now) == .saveRecord(F.id(1), record))
        #expect(machine.shown(F.id(1), notificationID: 40, now: now) == nil)
    }

    @Test func aNotificationTheServerRefusedIsDroppedAndSaid() {
        var machine = machine()
        _ = machine.serverChanged(F.xfce, timers: [F.timer()], now: now)
        let actions = machine.showFailed(F.id(1), reason: "no reply", now: now)
        #expect(actions == [
            .drop(F.id(1)), .log(.warning, "Could not show the notification of timer \(F.id(1)): no reply"), .statusChanged(F.id(1)),
        ])
        #expect(machine.status(of: F.id(1)) == .unavailable)
    }

    @Test func aNotificationTheServerRefusedIsOfferedAgainLater() {
        var machine = machine()
        _ = machine.serverChanged(F.xfce, timers: [F.timer()], now: now)
        _ = machine.showFailed(F.id(1), reason: "no reply", now: now)
        let again = now + settings.retryAfterFailure
        #expect(machine.wakeAt == again)
        let actions = machine.woke(now: again)
        #expect(shows(actions).map(\.summary) == ["Maya is asleep"])
        #expect(machine.status(of: F.id(1)) == .shown)
    }

    @Test func aNotificationOfferedAgainAnnouncesItsStatus() {
        var machine = machine()
        _ = machine.serverChanged(F.xfce, timers: [F.timer()], now: now)
        _ = machine.showFailed(F.id(1), reason: "no reply", now: now)
        let actions = machine.woke(now: now + settings.retryAfterFailure)
        #expect(actions.last == .statusChanged(F.id(1)))
        #expect(actions.filter { $0 == .statusChanged(F.id(1)) }.count == 1)
    }

    @Test func aSetClockOffersARefusedNotificationAgainAtOnce() {
        var machine = machine()
        _ = machine.serverChanged(F.xfce, timers: [F.timer()], now: now)
        _ = machine.showFailed(F.id(1), reason: "no reply", now: now)
        let actions = machine.clockChanged(now: now.plus(seconds: 5))
        #expect(shows(actions).map(\.summary) == ["Maya is asleep"])
        #expect(actions.last == .statusChanged(F.id(1)))
        #expect(machine.status(of: F.id(1)) == .shown)
    }

    @Test func aTimerThatLeftIsNotOfferedAgain() {
        var machine = machine()
        _ = machine.serverChanged(F.xfce, timers: [F.timer()], now: now)
        _ = machine.showFailed(F.id(1), reason: "no reply", now: now)
        _ = machine.timerRemoved(F.id(1))
        #expect(machine.wakeAt == nil)
    }

    @Test func aDismissalIsKeptAndHonoured() {
        var machine = showing([F.timer()])
        let actions = machine.closed(F.id(1), reason: NotificationCloseReason.dismissedByUser, now: now)
        #expect(actions.first == .saveRecord(F.id(1), NotificationRecord(notificationID: 0, dismissedInState: "running:3:true")))
        #expect(actions.last == .statusChanged(F.id(1)))
        #expect(machine.status(of: F.id(1)) == .dismissed)
        #expect(machine.timerChanged(F.timer(), now: now.plus(seconds: 60)).isEmpty)
    }

    @Test func aDismissalEndsWhenTheTimerChanges() {
        var machine = showing([F.timer()])
        _ = machine.closed(F.id(1), reason: NotificationCloseReason.dismissedByUser, now: now.plus(seconds: 1))
        let actions = machine.timerChanged(F.timer(revision: 4), now: now.plus(seconds: 2))
        #expect(actions.first == .saveRecord(F.id(1), NotificationRecord(notificationID: 0, dismissedInState: nil)))
        #expect(shows(actions).count == 1)
    }

    @Test func aCloseTheAgentAskedForIsNoDismissal() {
        var machine = showing([F.timer()])
        #expect(machine.closed(F.id(1), reason: NotificationCloseReason.closedByCall, now: now) == [.statusChanged(F.id(1))])
        #expect(machine.status(of: F.id(1)) == .unavailable)
    }

    @Test func aCloseAfterAClickShowsTheTimerAgain() {
        var machine = showing([F.timer()])
        #expect(machine.clicked(F.id(1), .complete, activationToken: nil) == .complete(F.id(1)))
        _ = machine.timerChanged(F.timer(completion: .pending), now: now)
        let actions = machine.closed(F.id(1), reason: NotificationCloseReason.dismissedByUser, now: now.plus(seconds: 2))
        #expect(shows(actions).map(\.body) == ["Saving…"])
        #expect(!actions.contains { if case .saveRecord = $0 { true } else { false } })
    }

    @Test func openCarriesTheActivationToken() {
        var machine = showing([F.timer()])
        #expect(machine.clicked(F.id(1), .open, activationToken: "tok") == .open(F.id(1), activationToken: "tok"))
    }

    @Test func aClickIsRememberedOnItsNotificationOnly() {
        var machine = showing([F.timer(1), F.timer(2, name: "Noah")])
        _ = machine.clicked(F.id(1), .open, activationToken: nil)
        #expect(machine.state.entries[F.id(1)]?.actionInvoked == true)
        #expect(machine.state.entries[F.id(2)]?.actionInvoked == false)
    }

    @Test func theOpenButtonOpensAsTheBodysClickDoes() {
        var machine = showing([F.timer()])
        #expect(machine.clicked(F.id(1), .openButton, activationToken: "tok")
            == .open(F.id(1), activationToken: "tok"))
    }

    @Test func anActionOnANotificationNoLongerShownDoesNothing() {
        var machine = showing([F.timer()])
        _ = machine.timerRemoved(F.id(1))
        #expect(machine.clicked(F.id(1), .complete, activationToken: nil) == nil)
    }

    // MARK: Saved

    @Test func aSavedSleepSaysGoodbyeAndClosesItselfLater() {
        var machine = showing([F.timer()])
        let actions = machine.saved(F.id(1), sleptMinutes: 83, now: now)
        #expect(actions == [.show(F.id(1), NotificationContent(
            summary: "Maya's sleep", body: "Sleep saved · 1 h 23 min", actions: [], persistent: false), replacing: 0)])
        // The timer's removal that follows leaves the farewell on screen (it
        // has no Complete, and closes by itself); only its record goes.
        #expect(machine.timerRemoved(F.id(1)) == [.forgetRecord(F.id(1))])
        _ = machine.shown(F.id(1), notificationID: 40, now: now)
        let closeAt = now.adding(NotificationContent.transientTimeout + NotificationContent.ignoredTimeoutGrace)
        #expect(machine.wakeAt == closeAt)
        #expect(machine.woke(now: closeAt) == [.close(F.id(1))])
        #expect(machine.wakeAt == nil)
    }

    @Test func aFarewellTheServerClosedNeedsNoWakeUp() {
        var machine = showing([F.timer()])
        _ = machine.saved(F.id(1), sleptMinutes: 83, now: now)
        _ = machine.shown(F.id(1), notificationID: 40, now: now)
        #expect(machine.closed(F.id(1), reason: NotificationCloseReason.expired, now: now).isEmpty)
        #expect(machine.wakeAt == nil)
    }

    @Test func aSavedSleepWithNothingShownShowsNothing() {
        var machine = showing([])
        #expect(machine.saved(F.id(1), sleptMinutes: 5, now: now).isEmpty)
    }

    // MARK: Minute boundaries

    @Test func theNextWakeUpIsTheNextMinuteOfTheStart() {
        let machine = showing([F.timer()])
        #expect(machine.wakeAt == now.plus(seconds: 40))
    }

    @Test func aMinuteBoundaryMovesTheElapsedTimeOn() {
        var machine = showing([F.timer()])
        let actions = machine.woke(now: now.plus(seconds: 40))
        #expect(shows(actions).map(\.body) == ["Asleep since 20:17 · 1 h 24 min"])
        #expect(machine.wakeAt == now.plus(seconds: 100))
    }

    @Test func onlyTheTimersWhoseBoundaryCameAreRefreshed() {
        var machine = showing([F.timer(1), F.timer(2, name: "Noah", startedAt: now.plus(seconds: -10))])
        #expect(machine.wakeAt == now.plus(seconds: 40))
        #expect(shows(machine.woke(now: now.plus(seconds: 40))).map(\.summary) == ["Maya is asleep"])
        #expect(machine.wakeAt == now.plus(seconds: 50))
    }

    @Test func aSetClockRemakesEveryTextForTheTimeItIsNow() {
        var machine = showing([F.timer(1), F.timer(2, name: "Noah", startedAt: now.plus(seconds: -10))])
        let later = now.plus(seconds: 3 * 3600)
        let actions = machine.clockChanged(now: later)
        #expect(shows(actions).map(\.body).sorted() == ["Asleep since 20:17 · 4 h 23 min", "Asleep since 21:40 · 3 h"])
        #expect(machine.wakeAt == later.plus(seconds: 40))
    }

    @Test func timersSharingABoundaryAreRefreshedInOneWakeUp() {
        var machine = showing([F.timer(1), F.timer(2, name: "Noah")])
        #expect(shows(machine.woke(now: now.plus(seconds: 40))).count == 2)
    }

    @Test func aServerThatAlertsOnEveryUpdateGetsNoLiveUpdates() {
        #expect(showing([F.timer()], on: F.gnome).wakeAt == nil)
    }

    @Test func textNotUpdatedInPlaceCarriesNoElapsedTime() {
        var machine = NotificationMachine(settings: settings, timeZones: UTCZones())
        let content = shows(machine.serverChanged(F.gnome, timers: [F.timer()], now: now)).first
        #expect(content?.body == "Asleep since 20:17")
    }

    @Test func liveUpdatesWhereTheConfigurationSaysOn() {
        #expect(showing([F.timer()], on: F.gnome, live: .on).wakeAt == now.plus(seconds: 40))
    }

    @Test func aSavingTimerNeedsNoMinuteBoundary() {
        var machine = showing([F.timer()])
        _ = machine.timerChanged(F.timer(completion: .pending), now: now)
        #expect(machine.wakeAt == nil)
    }

    @Test func theStateKeyKeepsItsStoredForm() {
        #expect(NotificationMachine.stateKey(F.timer(revision: 9), now: now) == "running:9:true")
        #expect(NotificationMachine.stateKey(F.timer(completion: .failed), now: now) == "save-failed:3:false")
    }

    // MARK: Urgency where an update pops up again

    func urgencies(_ actions: [NotificationMachine.Action]) -> [NotificationUrgency] { shows(actions).map(\.urgency) }

    /// Whether GNOME 48 would pop these actions up, by its rule: a replace
    /// unless the urgency the notification held was low, a new notification
    /// unless its own is. `held` is the urgency on screen before them.
    func popsUp(_ actions: [NotificationMachine.Action], held: NotificationUrgency?) -> [Bool] {
        var held = held
        var pops: [Bool] = []
        for command in actions {
            if command.closes { held = nil }
            if let content = command.shownContent {
                pops.append(held.map { $0 != .low } ?? (content.urgency != .low))
                held = content.urgency
            }
        }
        return pops
    }

    @Test func onGnome46AndLaterAnUpdateThatIsNoNewsGoesLowAndAsANewNotification() {
        var machine = showing([F.timer()], on: F.gnome48)
        let actions = machine.timerChanged(F.timer(completion: .pending), now: now)
        // The first show held normal, so a replace would pop up: the low
        // one is posted anew instead.
        #expect(actions.first == .close(F.id(1)))
        #expect(urgencies(actions) == [.low])
        #expect(popsUp(actions, held: .normal) == [false])
        // Held low now: the next change replaces it in place, quietly.
        let saved = machine.saved(F.id(1), sleptMinutes: 83, now: now.plus(seconds: 5))
        #expect(saved.count == 1)
        #expect(popsUp(saved, held: .low) == [false])
    }

    @Test func theFirstShowStaysNormalAndPopsUp() {
        var machine = machine()
        let actions = machine.serverChanged(F.gnome48, timers: [F.timer()], now: now)
        #expect(urgencies(actions) == [.normal])
        #expect(popsUp(actions, held: nil) == [true])
    }

    @Test func aRenewedTokenARenameAndTheMinuteAreNoNews() {
        var machine = showing([F.timer(expiresAt: now)], on: F.gnome48, live: .on)
        var held: NotificationUrgency = .normal
        func quiet(_ actions: [NotificationMachine.Action]) {
            #expect(urgencies(actions) == [.low])
            #expect(popsUp(actions, held: held) == [false])
            held = .low
        }
        quiet(machine.timerChanged(F.timer(revision: 4), now: now))
        quiet(machine.timerChanged(F.timer(name: "Maya Rose", revision: 5), now: now))
        quiet(machine.woke(now: now.plus(seconds: 40)))
    }

    @Test func aSleepThatCannotBeSavedIsNewsAndPopsUpAgain() {
        var machine = showing([F.timer()], on: F.gnome48)
        _ = machine.timerChanged(F.timer(completion: .pending), now: now)
        let failed = machine.timerChanged(F.timer(completion: .needsApp), now: now.plus(seconds: 5))
        #expect(urgencies(failed) == [.normal])
        #expect(failed.first == .close(F.id(1)))
        #expect(popsUp(failed, held: .low) == [true])
        #expect(NotificationMachine.isNews(.failed, after: .saving(waitingForNetwork: false)))
        #expect(!NotificationMachine.isNews(.failed, after: .failed))
        #expect(!NotificationMachine.isNews(.saving(waitingForNetwork: true), after: .running(canComplete: true)))
        #expect(!NotificationMachine.isNews(.running(canComplete: true), after: .running(canComplete: false)))
    }

    @Test func newsOnANormalNotificationIsAReplace() {
        var machine = showing([F.timer()], on: F.gnome48)
        let failed = machine.timerChanged(F.timer(completion: .needsApp), now: now)
        #expect(failed.count == 1)
        #expect(popsUp(failed, held: .normal) == [true])
    }

    @Test func onlyTheUrgencyChangingSendsNothing() {
        // Shown normal; the same text again on GNOME 48 would only lower it.
        var machine = showing([F.timer()], on: F.gnome48)
        #expect(machine.timerChanged(F.timer(revision: 4), now: now).isEmpty)
    }

    @Test func gnome43XfceAndDunstKeepTheUrgencyTheyHadOnAnUpdateAndReplaceInPlace() {
        for server in [F.gnome, F.xfce, F.plain] {
            var machine = showing([F.timer()], on: server)
            let actions = machine.timerChanged(F.timer(completion: .pending), now: now)
            #expect(urgencies(actions) == [.normal])
            #expect(actions.count == 1)
        }
    }

    @Test func theFarewellIsLowEverywhereAndOnGnome48NoBanner() {
        for server in [F.gnome48, F.gnome, F.xfce] {
            var machine = showing([F.timer()], on: server)
            let actions = machine.saved(F.id(1), sleptMinutes: 83, now: now)
            #expect(urgencies(actions) == [.low])
            if server == F.gnome48 { #expect(popsUp(actions, held: .normal) == [false]) }
        }
    }

    // MARK: The same text within a second

    @Test func theSameTextIsNotSentAgainWithinASecondButASecondLater() {
        var machine = showing([F.timer()])
        // A click, then the server closes it (xfce4-notifyd ignores resident):
        // shown again, with the text it had a moment before.
        _ = machine.clicked(F.id(1), .open, activationToken: nil)
        #expect(settings.repeatInterval > .milliseconds(1000))
        let soon = now.adding(milliseconds: 300)
        let actions = machine.closed(F.id(1), reason: NotificationCloseReason.dismissedByUser, now: soon)
        #expect(shows(actions).isEmpty)
        #expect(actions.last == .statusChanged(F.id(1)))
        let free = now + settings.repeatInterval
        #expect(machine.wakeAt == free)
        #expect(machine.woke(now: now + (settings.repeatInterval - .milliseconds(1))).isEmpty)
        #expect(shows(machine.woke(now: free)).map(\.summary) == ["Maya is asleep"])
        #expect(machine.wakeAt == now.plus(seconds: 40))
    }

    @Test func savingThenSavedIsNoRepeat() {
        var machine = showing([F.timer()])
        _ = machine.timerChanged(F.timer(completion: .pending), now: now)
        #expect(shows(machine.saved(F.id(1), sleptMinutes: 83, now: now.adding(milliseconds: 10))).count == 1)
    }

    @Test func aHeldRepeatGoesWithTheNotification() {
        var machine = showing([F.timer()])
        _ = machine.clicked(F.id(1), .open, activationToken: nil)
        _ = machine.closed(F.id(1), reason: NotificationCloseReason.dismissedByUser, now: now.adding(milliseconds: 300))
        _ = machine.timerRemoved(F.id(1))
        #expect(machine.wakeAt == nil)
        #expect(machine.woke(now: now.plus(seconds: 2)).isEmpty)
    }

    @Test func aChangeWhileHeldIsSentAtOnce() {
        var machine = showing([F.timer()])
        _ = machine.clicked(F.id(1), .open, activationToken: nil)
        _ = machine.closed(F.id(1), reason: NotificationCloseReason.dismissedByUser, now: now.adding(milliseconds: 300))
        let actions = machine.timerChanged(F.timer(completion: .pending), now: now.adding(milliseconds: 400))
        #expect(shows(actions).map(\.body) == ["Saving…"])
        #expect(machine.wakeAt == nil)
    }

    @Test func aRepostForAServerThatCameBackAtOnceWaitsItsSecond() {
        var machine = showing([F.timer()])
        _ = machine.serverChanged(nil, timers: [F.timer()], now: now)
        let replacement = NotificationServer(owner: ":1.8", displayName: F.xfce.displayName, traits: F.xfce.traits)
        let actions = machine.serverChanged(replacement, timers: [F.timer()], now: now.adding(milliseconds: 200))
        #expect(shows(actions).isEmpty)
        #expect(machine.status(of: F.id(1)) == .shown)
        #expect(shows(machine.woke(now: (now + settings.repeatInterval))).count == 1)
    }

    // MARK: Do Not Disturb

    @Test func aNotificationTheServerPutAwayIsNoDismissal() {
        var machine = showing([F.timer()])
        let actions = machine.closed(F.id(1), reason: NotificationCloseReason.undefined, now: now)
        #expect(!actions.contains { if case .saveRecord = $0 { true } else { false } })
        #expect(shows(actions).isEmpty)
        #expect(actions.last == .statusChanged(F.id(1)))
        #expect(machine.status(of: F.id(1)) == .unavailable)
        #expect(machine.wakeAt == nil)
    }

    @Test func duringDoNotDisturbWhatIsShownOffersNoButtonsAndAfterItCompleteIsBack() {
        var machine = showing([F.timer()])
        // xfce4-notifyd closes what it shows when Do Not Disturb begins.
        _ = machine.closed(F.id(1), reason: NotificationCloseReason.undefined, now: now)
        let during = machine.serverChanged(F.xfceDoNotDisturb, timers: [F.timer()], now: now.plus(seconds: 1))
        #expect(!during.contains(.dropAll))
        #expect(shows(during).map(\.actions) == [[]])
        #expect(shows(during).first?.body.hasSuffix("\nOpen the app to complete it.") == true)
        // ... and every notification that comes during it.
        _ = machine.closed(F.id(1), reason: NotificationCloseReason.undefined, now: now.plus(seconds: 1))
        let after = machine.serverChanged(F.xfce, timers: [F.timer()], now: now.plus(seconds: 5))
        #expect(shows(after).map(\.actions) == [[.open, .complete]])
        #expect(after.last == .statusChanged(F.id(1)))
        #expect(machine.status(of: F.id(1)) == .shown)
    }

    @Test func theSameServerWithOtherTraitsUpdatesInPlace() {
        var machine = showing([F.timer()])
        let actions = machine.serverChanged(F.xfceDoNotDisturb, timers: [F.timer()], now: now)
        #expect(actions.count == 1)
        #expect(actions.first.map { if case .show(_, let content, replacing: 0) = $0 { content.actions == [] } else { false } } == true)
    }

    @Test func aDismissalHoldsThroughDoNotDisturb() {
        var machine = showing([F.timer()])
        _ = machine.closed(F.id(1), reason: NotificationCloseReason.dismissedByUser, now: now)
        #expect(shows(machine.serverChanged(F.xfceDoNotDisturb, timers: [F.timer()], now: now)).isEmpty)
        #expect(shows(machine.serverChanged(F.xfce, timers: [F.timer()], now: now)).isEmpty)
        #expect(machine.status(of: F.id(1)) == .dismissed)
    }

    @Test func theCloseReasonsAreTheSpecificationsNumbers() {
        #expect(NotificationCloseReason.expired == 1)
        #expect(NotificationCloseReason.dismissedByUser == 2)
        #expect(NotificationCloseReason.closedByCall == 3)
        #expect(NotificationCloseReason.undefined == 4)
    }

    // MARK: Edges

    @Test func withoutAServerADismissedTimerIsUnavailable() {
        let machine = machine(records: [F.id(1): NotificationRecord(notificationID: 0, dismissedInState: "running:3:true")])
        #expect(machine.status(of: F.id(1)) == .unavailable)
    }

    @Test func aClockSetBackRemakesTheTextBeforeItsBoundary() {
        var machine = showing([F.timer()])
        let actions = machine.clockChanged(now: now.plus(seconds: -60))
        #expect(shows(actions).map(\.body) == ["Asleep since 20:17 · 1 h 22 min"])
    }

    @Test func aNewTimeFormatRemakesTheTextBeforeItsBoundary() {
        var machine = showing([F.timer()])
        let actions = machine.settingsChanged(.init(liveElapsed: .auto, timeFormat: .twelveHour), now: now.plus(seconds: 5))
        let bodies = shows(actions).map(\.body)
        #expect(bodies.count == 1)
        #expect(bodies.first != "Asleep since 20:17 · 1 h 23 min")
    }

    @Test func aFarewellTheServerRefusedIsDroppedAndSaid() {
        var machine = showing([F.timer()])
        _ = machine.saved(F.id(1), sleptMinutes: 83, now: now)
        #expect(machine.showFailed(F.id(1), reason: "no reply", now: now)
            == [.drop(F.id(1)), .log(.warning, "Could not show that the sleep was saved: no reply")])
    }

    @Test func aCloseAfterAClickAnnouncesTheStatusOnce() {
        var machine = showing([F.timer()])
        _ = machine.clicked(F.id(1), .complete, activationToken: nil)
        let actions = machine.closed(F.id(1), reason: NotificationCloseReason.dismissedByUser, now: now.plus(seconds: 2))
        #expect(shows(actions).count == 1)
        #expect(actions.filter { $0 == .statusChanged(F.id(1)) }.count == 1)
    }

    @Test func aRefusedNotificationIsNotOfferedAgainBeforeItsWait() {
        var machine = machine()
        _ = machine.serverChanged(F.xfce, timers: [F.timer()], now: now)
        _ = machine.showFailed(F.id(1), reason: "no reply", now: now)
        #expect(machine.woke(now: now.plus(seconds: 1)).isEmpty)
        #expect(machine.wakeAt == now + settings.retryAfterFailure)
    }
}

/// What an action shows or whether it closes, read by the helpers above.
extension NotificationMachine.Action {
    var shownContent: NotificationContent? { if case .show(_, let content, _) = self { content } else { nil } }
    var closes: Bool { if case .close = self { true } else { false } }
}
