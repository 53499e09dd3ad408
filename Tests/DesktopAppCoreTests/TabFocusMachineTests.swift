import DesktopAppCore
import Testing

@Suite struct TabFocusMachineTests {
    @Test func aTabInThePageIsThePages() {
        var tabs = TabFocusMachine()
        #expect(tabs.tabPressed(time: 10, focusInPage: true) == .toPage)
    }

    @Test func theTabWebKitHandsBackAfterMovingTheFocusOutIsDropped() {
        var tabs = TabFocusMachine()
        _ = tabs.tabPressed(time: 10, focusInPage: true)
        #expect(tabs.tabPressed(time: 10, focusInPage: false) == .drop)
    }

    @Test func theNextTabInTheHeaderBarMovesTheFocus() {
        var tabs = TabFocusMachine()
        _ = tabs.tabPressed(time: 10, focusInPage: true)
        _ = tabs.tabPressed(time: 10, focusInPage: false)
        #expect(tabs.tabPressed(time: 10, focusInPage: false) == .moveFocus)
        #expect(tabs.tabPressed(time: 11, focusInPage: false) == .moveFocus)
    }

    @Test func aTabOutsideThePageMovesTheFocus() {
        var tabs = TabFocusMachine()
        #expect(tabs.tabPressed(time: 10, focusInPage: false) == .moveFocus)
    }

    @Test func aTabHandedBackWhileThePageKeepsTheFocusIsThePagesToPassOn() {
        var tabs = TabFocusMachine()
        tabs.gaveToPage(time: 12)
        #expect(tabs.tabPressed(time: 12, focusInPage: true) == .toPage)
    }

    @Test func aTabGivenToThePageThatLeftItAtOnceIsDropped() {
        var tabs = TabFocusMachine()
        tabs.gaveToPage(time: 12)
        #expect(tabs.tabPressed(time: 12, focusInPage: false) == .drop)
    }
}
