import Testing
@testable import PanelIndicator
import SleepTimerCore

/// When the item exists, and what tells the panel.
@Suite struct PublishingTests {
    let now = Fixtures.now

    @Test func withNoWatcherAutoPublishesNothingAndSaysNothing() {
        var indicator = PanelItemMachine(settings: .init(visibility: .auto))
        #expect(indicator.timersChanged([Fixtures.timer()], now: now) == [])
        #expect(indicator.minuteBoundary(now: Fixtures.minutes(1)) == [])
        #expect(!indicator.state.isPublished)
        #expect(!indicator.wantsMinuteRefreshes)
    }

    @Test func withNoPanelTheMenuWaitsUntilTheItemIsPublished() {
        var indicator = PanelItemMachine(settings: .init(visibility: .auto))
        _ = indicator.timersChanged([Fixtures.timer()], now: now)
        #expect(Fixtures.labels(indicator) == ["Open Dreams for Littles"])
        _ = indicator.watcherChanged(.present(hostRegistered: true), newInstance: true, now: now)
        #expect(Fixtures.labels(indicator).contains("Open Dreams for Littles"))
        #expect(Fixtures.labels(indicator).count > 1)
    }

    @Test func aWatcherWithoutTimersPublishesNothingInAuto() {
        var indicator = PanelItemMachine(settings: .init(visibility: .auto))
        #expect(indicator.watcherChanged(.present(hostRegistered: true), newInstance: true, now: now) == [])
        #expect(!indicator.state.isPublished)
    }

    @Test func theFirstTimerOnAPanelPublishesAndRegisters() {
        var indicator = PanelItemMachine(settings: .init(visibility: .auto))
        _ = indicator.watcherChanged(.present(hostRegistered: true), newInstance: true, now: now)
        #expect(indicator.timersChanged([Fixtures.timer()], now: now) == [.publish, .register])
        #expect(indicator.state.isPublished)
        #expect(indicator.status == .active)
    }

    @Test func aPanelArrivingWhileATimerRunsPublishesAndRegisters() {
        var indicator = PanelItemMachine(settings: .init(visibility: .auto))
        _ = indicator.timersChanged([Fixtures.timer()], now: now)
        #expect(indicator.watcherChanged(.present(hostRegistered: true), newInstance: true, now: now)
            == [.publish, .register])
    }

    @Test func theLastTimerEndingWithdrawsTheItem() {
        var indicator = Fixtures.shown()
        #expect(indicator.timersChanged([], now: now) == [.withdraw])
        #expect(!indicator.state.isPublished)
    }

    @Test func aRestartedWatcherGetsTheItemRegisteredAgain() {
        var indicator = Fixtures.shown()
        #expect(indicator.watcherChanged(.present(hostRegistered: true), newInstance: true, now: now) == [.register])
    }

    @Test func theSameWatcherReportingAgainRegistersNothing() {
        var indicator = Fixtures.shown()
        #expect(indicator.watcherChanged(.present(hostRegistered: true), newInstance: false, now: now) == [])
    }

    @Test func theWatcherGoingAwayWithdrawsTheItemInAuto() {
        var indicator = Fixtures.shown()
        #expect(indicator.watcherChanged(.absent, newInstance: false, now: now) == [.withdraw])
        #expect(indicator.watcherChanged(.present(hostRegistered: true), newInstance: true, now: now)
            == [.publish, .register])
    }

    @Test func neverPublishesWhateverHappens() {
        var indicator = PanelItemMachine(settings: .init(visibility: .never))
        #expect(indicator.watcherChanged(.present(hostRegistered: true), newInstance: true, now: now) == [])
        #expect(indicator.timersChanged([Fixtures.timer()], now: now) == [])
        #expect(indicator.minuteBoundary(now: Fixtures.minutes(1)) == [])
        #expect(!indicator.state.isPublished)
        #expect(!indicator.wantsMinuteRefreshes)
    }

    /// `show=never` is decided here alone: the shell asks at its start and
    /// carries out whatever the events return.
    @Test func neverStaysOffTheBusFromTheStart() {
        var indicator = PanelItemMachine(settings: .init(visibility: .never))
        #expect(indicator.started(now: now) == .stayOffTheBus)
        #expect(indicator.timersChanged([Fixtures.timer()], now: now) == [])
        #expect(indicator.appRunningChanged(true, now: now) == [])
        #expect(indicator.watcherChanged(.present(hostRegistered: true), newInstance: true, now: now) == [])
        #expect(!indicator.state.isPublished)
    }

    @Test func autoStartsOnTheBusAndPublishesNothingYet() {
        var indicator = PanelItemMachine(settings: .init(visibility: .auto))
        #expect(indicator.started(now: now) == .export(then: []))
        #expect(!indicator.state.isPublished)
    }

    @Test func alwaysStartsOnTheBusPublished() {
        var indicator = PanelItemMachine(settings: .init(visibility: .always))
        #expect(indicator.started(now: now) == .export(then: [.publish]))
        #expect(indicator.state.isPublished)
    }

    @Test func alwaysPublishesWithoutAWatcherAndRegistersWhenOneComes() {
        var indicator = PanelItemMachine(settings: .init(visibility: .always))
        #expect(indicator.minuteBoundary(now: now) == [.publish])
        #expect(indicator.watcherChanged(.present(hostRegistered: true), newInstance: true, now: now) == [.register])
        #expect(indicator.watcherChanged(.absent, newInstance: false, now: now) == [])
        #expect(indicator.state.isPublished)
    }

    /// The app's coming, before anything else, publishes an item shown
    /// always, as a minute boundary does; nothing registers, no watcher is
    /// known yet.
    @Test func alwaysPublishesAtTheAppsComingBeforeAnythingElse() {
        var indicator = PanelItemMachine(settings: .init(visibility: .always))
        #expect(indicator.appRunningChanged(true, now: now) == [.publish])
        #expect(indicator.state.isPublished)
        #expect(indicator.state.appRunning)
        #expect(Fixtures.labels(indicator) == ["Open Dreams for Littles", "Quit Dreams for Littles"])
        #expect(indicator.appRunningChanged(false, now: now)
            == [.emit(.layoutUpdated(revision: indicator.state.menu.revision, parent: 0))])
        #expect(!indicator.state.appRunning)
    }

    /// Without a panel, the app's coming or going changes nothing on the
    /// bus, and the menu waits for the item to be published.
    @Test func theAppsComingWithoutAPanelSaysNothing() {
        var indicator = PanelItemMachine(settings: .init(visibility: .auto))
        #expect(indicator.appRunningChanged(true, now: now) == [])
        #expect(indicator.state.appRunning)
        #expect(!indicator.state.isPublished)
        #expect(Fixtures.labels(indicator) == ["Open Dreams for Littles"])
    }

    /// A watcher's report is kept as it came: the item reads it back.
    @Test func theWatcherIsKeptAsReported() {
        var indicator = Fixtures.shown()
        #expect(indicator.state.watcher == .present(hostRegistered: true))
        _ = indicator.watcherChanged(.present(hostRegistered: false), newInstance: false, now: now)
        #expect(indicator.state.watcher == .present(hostRegistered: false))
        #expect(indicator.state.isPublished)
        _ = indicator.watcherChanged(.absent, newInstance: true, now: now)
        #expect(indicator.state.watcher == .absent)
        #expect(!indicator.state.isPublished)
    }

    /// With show=always, a start after the timers came publishes the item
    /// with them, and says nothing more.
    @Test func alwaysStartedAfterATimerPublishesItsMenu() {
        var indicator = PanelItemMachine(settings: .init(visibility: .always))
        #expect(indicator.timersChanged([Fixtures.timer()], now: now) == [.publish])
        #expect(indicator.started(now: Fixtures.minutes(1)) == .export(then: [.emit(.newToolTip)]))
        #expect(Fixtures.labels(indicator) == ["Complete Maya's sleep", "Open Maya's sleep", "—", "Open Dreams for Littles"])
    }

    @Test func alwaysIsPassiveWithNoTimerAndActiveWithOne() {
        var indicator = Fixtures.shown([], visibility: .always)
        #expect(indicator.status == .passive)
        #expect(indicator.title == "Dreams for Littles")
        #expect(Fixtures.labels(indicator) == ["Open Dreams for Littles"])
        #expect(indicator.timersChanged([Fixtures.timer()], now: now).contains(.emit(.newStatus(.active))))
        #expect(indicator.timersChanged([], now: now).contains(.emit(.newStatus(.passive))))
        #expect(indicator.state.isPublished)
    }

    @Test func aNewTimerTellsTheTitleTheTooltipAndTheLayout() {
        var indicator = Fixtures.shown()
        let actions = indicator.timersChanged([Fixtures.timer(), Fixtures.timer(Fixtures.leo, name: "Leo")], now: now)
        #expect(actions == [
            .emit(.newTitle), .emit(.newToolTip), .emit(.layoutUpdated(revision: indicator.state.menu.revision, parent: 0)),
        ])
    }

    @Test func theSameTimersAgainSayNothing() {
        var indicator = Fixtures.shown()
        #expect(indicator.timersChanged([Fixtures.timer()], now: now) == [])
    }

    @Test func aMinuteBoundaryTellsTheNewTooltipOnly() {
        var indicator = Fixtures.shown()
        #expect(indicator.minuteBoundary(now: Fixtures.minutes(1)) == [.emit(.newToolTip)])
        #expect(indicator.toolTip(at: Fixtures.minutes(1)).description == "Maya asleep · 1 h 38 min")
    }

    @Test func aWakeUpWithinTheSameMinuteSaysNothing() {
        var indicator = Fixtures.shown()
        #expect(indicator.minuteBoundary(now: now.adding(milliseconds: 59_000)) == [])
    }

    @Test func aHostComingBackAfterMinutesHearsTheNewTooltip() {
        var indicator = Fixtures.shown()
        _ = indicator.watcherChanged(.present(hostRegistered: false), newInstance: false, now: now)
        #expect(!indicator.wantsMinuteRefreshes)
        #expect(indicator.watcherChanged(.present(hostRegistered: true), newInstance: false, now: Fixtures.minutes(5))
            == [.emit(.newToolTip)])
    }
}

/// Whether and when the owner of the minute tick refreshes the indicator.
@Suite struct MinuteRefreshTests {
    let now = Fixtures.now

    @Test func aShownRunningTimerWantsRefreshesAtItsNextMinute() {
        let indicator = Fixtures.shown([Fixtures.timer(startedMinutesAgo: 97)])
        #expect(indicator.wantsMinuteRefreshes)
        #expect(indicator.nextMinuteBoundary(after: now.adding(milliseconds: 1)) == Fixtures.minutes(1))
    }

    @Test func theNextBoundaryIsTheEarliestOfSeveralTimers() {
        let early = Fixtures.timer(Fixtures.leo, name: "Leo", startedMinutesAgo: 3, now: now.adding(milliseconds: -20_000))
        let indicator = Fixtures.shown([Fixtures.timer(), early])
        // Leo started 3 min 20 s ago: his minute turns in 40 s, before Maya's.
        #expect(indicator.nextMinuteBoundary(after: now) == now.adding(milliseconds: 40_000))
    }

    @Test func noRefreshesWithoutAHostShowingItems() {
        var indicator = Fixtures.shown()
        _ = indicator.watcherChanged(.present(hostRegistered: false), newInstance: false, now: now)
        #expect(!indicator.wantsMinuteRefreshes)
        #expect(indicator.nextMinuteBoundary(after: now) == nil)
    }

    @Test func noRefreshesWhenNothingShownCounts() {
        let indicator = Fixtures.shown([Fixtures.timer(phase: .saving(waitingForNetwork: false))])
        #expect(indicator.state.isPublished)
        #expect(!indicator.wantsMinuteRefreshes)
    }

    @Test func noRefreshesWhenUnpublished() {
        var indicator = PanelItemMachine(settings: .init(visibility: .auto))
        _ = indicator.timersChanged([Fixtures.timer()], now: now)
        #expect(!indicator.wantsMinuteRefreshes)
        #expect(indicator.nextMinuteBoundary(after: now) == nil)
    }

    @Test func aTimerStartedAheadOfTheClockTurnsAMinuteAfterItsStart() {
        let ahead = Fixtures.timer(startedMinutesAgo: -2)
        let indicator = Fixtures.shown([ahead])
        #expect(indicator.nextMinuteBoundary(after: now) == ahead.startedAt.adding(milliseconds: Milliseconds.minute))
        #expect(indicator.toolTip(at: now).description == "Maya asleep · 0 min")
    }
}
