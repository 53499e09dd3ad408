import Testing
import PanelIndicator
import SleepTimerCore

/// The clicks of one dbusmenu EventGroup do each thing once for the call.
@Suite struct OneCallTests {
    let maya = Fixtures.maya
    let leo = Fixtures.leo

    @Test func aThousandClicksOnOpenTheAppAreOneOpen() {
        var call = OneCall()
        let done = (0..<1_000).flatMap { _ in call.admit([.openApp(activationToken: nil)]) }
        #expect(done == [.openApp(activationToken: nil)])
    }

    @Test func onlyTheFirstOpenIsDoneWhateverItOpens() {
        var call = OneCall()
        #expect(call.admit([.open(maya, activationToken: "t1")]) == [.open(maya, activationToken: "t1")])
        #expect(call.admit([.openApp(activationToken: nil)]) == [])
        #expect(call.admit([.open(leo, activationToken: nil)]) == [])
    }

    @Test func eachCompleteAndQuitIsDoneOnceAndDoNotStopTheFirstOpen() {
        var call = OneCall()
        #expect(call.admit([.complete(maya)]) == [.complete(maya)])
        #expect(call.admit([.complete(maya)]) == [])
        #expect(call.admit([.complete(leo)]) == [.complete(leo)])
        #expect(call.admit([.quitApp]) == [.quitApp])
        #expect(call.admit([.quitApp]) == [])
        #expect(call.admit([.openApp(activationToken: nil)]) == [.openApp(activationToken: nil)])
    }

    /// Only opening, Complete and Quit are held to once a call: what the
    /// item itself does on the bus passes every time.
    @Test func theItemsOwnActionsAlwaysPass() {
        var call = OneCall()
        let own: [PanelIndicator.Action] = [.publish, .register, .withdraw, .emit(.newTitle)]
        #expect(call.admit(own) == own)
        #expect(call.admit(own) == own)
    }

    @Test func aNewCallOpensAgain() {
        var first = OneCall()
        _ = first.admit([.openApp(activationToken: nil)])
        var second = OneCall()
        #expect(second.admit([.openApp(activationToken: nil)]) == [.openApp(activationToken: nil)])
    }
}
