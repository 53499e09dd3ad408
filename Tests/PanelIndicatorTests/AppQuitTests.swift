import Testing
import PanelIndicator
import SleepTimerCore

/// The menu's Quit: there while the app runs (perhaps with its window
/// closed, renewing tokens), gone when it does not, and a click asks the
/// app to quit.
@Suite struct AppQuitTests {
    let now = Fixtures.now

    @Test func whileTheAppRunsTheMenuCanQuitIt() {
        var indicator = Fixtures.shown()
        let actions = indicator.appRunningChanged(true, now: now)
        #expect(Fixtures.labels(indicator)
            == ["Complete Maya's sleep", "Open Maya's sleep", "—", "Open Dreams for Littles", "Quit Dreams for Littles"])
        #expect(actions.contains { if case .emit(.layoutUpdated) = $0 { return true } else { return false } })
        let id = Fixtures.id(of: "Quit Dreams for Littles", in: indicator)!
        #expect(indicator.menuEvent(id: id, event: "clicked") == .quitApp)
    }

    @Test func whenTheAppIsGoneQuitGoesAndAStaleClickDoesNothing() {
        var indicator = Fixtures.shown()
        _ = indicator.appRunningChanged(true, now: now)
        let id = Fixtures.id(of: "Quit Dreams for Littles", in: indicator)!
        _ = indicator.appRunningChanged(false, now: now)
        #expect(Fixtures.labels(indicator) == ["Complete Maya's sleep", "Open Maya's sleep", "—", "Open Dreams for Littles"])
        #expect(indicator.menuEvent(id: id, event: "clicked") == .unknownItem)
    }

    @Test func noChangeIsSignalledWhenNothingChanged() {
        var indicator = Fixtures.shown()
        _ = indicator.appRunningChanged(true, now: now)
        #expect(indicator.appRunningChanged(true, now: now) == [])
    }
}
