import DesktopAppCore
import Testing

@Suite struct TabFocusTests {
    @Test func aTabInThePageIsThePages() {
        var tabs = TabFocus()
        #expect(tabs.step(time: 10, focusInPage: true) == .toPage)
    }

    @Test func theTabWebKitHandsBackAfterMovingTheFocusOutIsDropped() {
        var tabs = TabFocus()
        _ = tabs.step(time: 10, focusInPage: true)
        #expect(tabs.step(time: 10, focusInPage: false) == .drop)
    }

    @Test func theNextTabInTheHeaderBarMovesTheFocus() {
        var tabs = TabFocus()
        _ = tabs.step(time: 10, focusInPage: true)
        _ = tabs.step(time: 10, focusInPage: false)
        #expect(tabs.step(time: 10, focusInPage: false) == .moveFocus)
        #expect(tabs.step(time: 11, focusInPage: false) == .moveFocus)
    }

    @Test func aTabOutsideThePageMovesTheFocus() {
        var tabs = TabFocus()
        #expect(tabs.step(time: 10, focusInPage: false) == .moveFocus)
    }

    @Test func aTabHandedBackWhileThePageKeepsTheFocusIsThePagesToPassOn() {
        var tabs = TabFocus()
        tabs.gaveToPage(time: 12)
        #expect(tabs.step(time: 12, focusInPage: true) == .toPage)
    }

    @Test func aTabGivenToThePageThatLeftItAtOnceIsDropped() {
        var tabs = TabFocus()
        tabs.gaveToPage(time: 12)
        #expect(tabs.step(time: 12, focusInPage: false) == .drop)
    }
}
