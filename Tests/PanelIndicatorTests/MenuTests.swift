import Testing
@testable import PanelIndicator
import SleepTimerCore

/// What the menu holds, and how a change reaches the host.
@Suite struct MenuTests {
    let now = Fixtures.now

    @Test func aRunningTimerOffersCompleteAndOpenThenTheApp() {
        let indicator = Fixtures.shown()
        #expect(Fixtures.labels(indicator) == ["Complete Maya's sleep", "Open Maya's sleep", "—", "Open Dreams for Littles"])
        #expect(indicator.state.menu.items[2].properties == ["type": .string("separator")])
    }

    @Test func aTimerTheDesktopCannotCompleteOffersOnlyOpen() {
        let indicator = Fixtures.shown([Fixtures.timer(phase: .running(canComplete: false))])
        #expect(Fixtures.labels(indicator) == ["Open Maya's sleep", "—", "Open Dreams for Littles"])
    }

    @Test(arguments: [
        (TimerPhase.saving(waitingForNetwork: false), "Saving Maya's sleep…"),
        (.saving(waitingForNetwork: true), "Maya's sleep will save when you are back online"),
        (.failed, "Couldn't save Maya's sleep. Open the app to finish"),
    ])
    func aCompletionUnderWayShowsItsStateAndOpen(_ phase: TimerPhase, _ state: String) {
        let indicator = Fixtures.shown([Fixtures.timer(phase: phase)])
        #expect(Fixtures.labels(indicator) == [state, "Open Maya's sleep", "—", "Open Dreams for Littles"])
        #expect(indicator.state.menu.items[0].properties["enabled"] == .boolean(false))
        #expect(indicator.state.menu.items[1].properties["enabled"] == nil)
    }

    @Test func aSavedSleepShowsItsLengthAndCannotBeOpened() {
        let indicator = Fixtures.shown([Fixtures.timer(phase: .saved(minutes: 97))])
        #expect(Fixtures.labels(indicator) == ["Maya's sleep saved · 1 h 37 min", "—", "Open Dreams for Littles"])
    }

    @Test func severalTimersComeInTheOrderTheyStarted() {
        let indicator = Fixtures.shown([
            Fixtures.timer(Fixtures.leo, name: "Leo", startedMinutesAgo: 12),
            Fixtures.timer(startedMinutesAgo: 97, phase: .running(canComplete: false)),
        ])
        #expect(Fixtures.labels(indicator) == [
            "Open Maya's sleep", "Complete Leo's sleep", "Open Leo's sleep", "—", "Open Dreams for Littles",
        ])
    }

    @Test func underscoresInANameAreShownNotTakenForMnemonics() {
        let indicator = Fixtures.shown([Fixtures.timer(name: "Mia_Rose")])
        #expect(Fixtures.labels(indicator).first == "Complete Mia__Rose's sleep")
    }

    @Test func theFirstMenuIsRevisionOneAndOffersTheApp() {
        let indicator = PanelItemMachine(settings: .init(visibility: .auto))
        #expect(indicator.state.menu.revision == 1)
        #expect(Fixtures.labels(indicator) == ["Open Dreams for Littles"])
    }

    @Test func aChangeOfItemsBumpsTheRevisionAndSaysLayoutUpdated() {
        var indicator = Fixtures.shown()
        let before = indicator.state.menu.revision
        let actions = indicator.timersChanged([Fixtures.timer(phase: .saving(waitingForNetwork: false))], now: now)
        #expect(indicator.state.menu.revision == before + 1)
        #expect(actions.contains(.emit(.layoutUpdated(revision: before + 1, parent: 0))))
    }

    @Test func aChangedLabelAloneSaysItemsPropertiesUpdated() {
        var indicator = Fixtures.shown([Fixtures.timer(phase: .saving(waitingForNetwork: false))])
        let before = indicator.state.menu.revision
        let stateID = indicator.state.menu.items[0].id
        let actions = indicator.timersChanged([Fixtures.timer(phase: .saving(waitingForNetwork: true))], now: now)
        #expect(indicator.state.menu.revision == before)
        #expect(actions.contains(.emit(.itemsPropertiesUpdated(
            updated: [MenuItem(id: stateID, properties: ["label": .string("Maya's sleep will save when you are back online")])],
            removed: []))))
    }

    @Test func anItemThatStaysKeepsItsID() {
        var indicator = Fixtures.shown()
        let open = Fixtures.id(of: "Open Maya's sleep", in: indicator)
        _ = indicator.timersChanged([Fixtures.timer(phase: .saving(waitingForNetwork: false))], now: now)
        #expect(Fixtures.id(of: "Open Maya's sleep", in: indicator) == open)
    }

    @Test func theLayoutOfTheRootHasEveryItemAsAChild() throws {
        let indicator = Fixtures.shown()
        let root = try #require(indicator.layout(parent: 0, depth: -1, propertyNames: []))
        #expect(root.properties == ["children-display": .string("submenu")])
        #expect(root.children.map(\.id) == indicator.state.menu.items.map(\.id))
    }

    @Test func depthZeroLeavesTheChildrenOut() throws {
        let indicator = Fixtures.shown()
        #expect(try #require(indicator.layout(parent: 0, depth: 0, propertyNames: [])).children == [])
    }

    @Test func onlyThePropertiesAskedForAreReturned() throws {
        let indicator = Fixtures.shown([Fixtures.timer(phase: .failed)])
        let root = try #require(indicator.layout(parent: 0, depth: 1, propertyNames: ["enabled"]))
        #expect(root.properties == [:])
        #expect(root.children[0].properties == ["enabled": .boolean(false)])
        #expect(root.children[1].properties == [:])
    }

    @Test func anItemIsItsOwnLayoutWithoutChildren() throws {
        let indicator = Fixtures.shown()
        let id = try #require(Fixtures.id(of: "Open Maya's sleep", in: indicator))
        let node = try #require(indicator.layout(parent: id, depth: -1, propertyNames: []))
        #expect(node.properties == ["label": .string("Open Maya's sleep")])
        #expect(node.children == [])
    }

    @Test func anUnknownParentHasNoLayout() {
        #expect(Fixtures.shown().layout(parent: 9999, depth: -1, propertyNames: []) == nil)
    }

    @Test func groupPropertiesSkipUnknownIdsAndGiveAllForNone() {
        let indicator = Fixtures.shown()
        let open = Fixtures.id(of: "Open Maya's sleep", in: indicator)!
        #expect(indicator.groupProperties(ids: [open, 9999], propertyNames: ["label"]).map(\.id) == [open])
        #expect(indicator.groupProperties(ids: [], propertyNames: []).map(\.id) == [0] + indicator.state.menu.items.map(\.id))
    }

    @Test func aboutToShowNeverAsksForAnUpdateAndRefusesUnknownIds() {
        let indicator = Fixtures.shown()
        #expect(indicator.aboutToShow(0) == false)
        #expect(indicator.aboutToShow(9999) == nil)
    }
}
