import Testing
@testable import PanelIndicator
import SleepTimerCore

/// The clicks of one dbusmenu EventGroup do each thing once for the call.
@Suite struct EventGroupMachineTests {
    let maya = Fixtures.maya
    let leo = Fixtures.leo

    @Test func aThousandClicksOnOpenTheAppAreOneOpen() {
        var call = EventGroupMachine()
        let done = (0..<1_000).compactMap { _ in call.clicked(.openApp(activationToken: nil)) }
        #expect(done == [.openApp(activationToken: nil)])
    }

    @Test func onlyTheFirstOpenIsDoneWhateverItOpens() {
        var call = EventGroupMachine()
        #expect(call.clicked(.open(maya, activationToken: "t1")) == .open(maya, activationToken: "t1"))
        #expect(call.clicked(.openApp(activationToken: nil)) == nil)
        #expect(call.clicked(.open(leo, activationToken: nil)) == nil)
        #expect(call.state.opened)
    }

    @Test func eachCompleteAndQuitIsDoneOnceAndDoNotStopTheFirstOpen() {
        var call = EventGroupMachine()
        #expect(call.clicked(.complete(maya)) == .complete(maya))
        #expect(call.clicked(.complete(maya)) == nil)
        #expect(call.clicked(.complete(leo)) == .complete(leo))
        #expect(call.clicked(.quitApp) == .quitApp)
        #expect(call.clicked(.quitApp) == nil)
        #expect(call.clicked(.openApp(activationToken: nil)) == .openApp(activationToken: nil))
        #expect(call.state.done == [.complete(maya), .complete(leo), .quitApp])
    }

    /// Only opening, Complete and Quit are held to once a call: a click on
    /// nothing, or on an item gone, does nothing and holds nothing back,
    /// however often it comes.
    @Test func clicksOnNothingDoNothingAndHoldNothingBack() {
        var call = EventGroupMachine()
        #expect(call.clicked(.ignored) == nil)
        #expect(call.clicked(.unknownItem) == nil)
        #expect(call.clicked(.ignored) == nil)
        #expect(call.state == EventGroupMachine.State())
        #expect(call.clicked(.open(maya, activationToken: nil)) == .open(maya, activationToken: nil))
        #expect(call.clicked(.complete(maya)) == .complete(maya))
    }

    @Test func aNewCallOpensAgain() {
        var first = EventGroupMachine()
        _ = first.clicked(.openApp(activationToken: nil))
        var second = EventGroupMachine()
        #expect(second.clicked(.openApp(activationToken: nil)) == .openApp(activationToken: nil))
    }

    /// The menu's clicks as the item reads them, in one call: the second
    /// click on Open meets the same item and is not done again.
    @Test func theItemsClicksOfOneCallOpenOnce() {
        var indicator = Fixtures.shown()
        let open = Fixtures.id(of: "Open Maya's sleep", in: indicator)!
        var call = EventGroupMachine()
        #expect(call.clicked(indicator.menuEvent(id: open, event: "clicked")) == .open(maya, activationToken: nil))
        #expect(call.clicked(indicator.menuEvent(id: open, event: "clicked")) == nil)
    }
}
