import Testing
@testable import PanelIndicator
import SleepTimerCore

/// What a click asks the agent to do, and what it must never do.
@Suite struct ClickTests {
    let now = Fixtures.now

    private func click(_ label: String, in indicator: inout PanelItemMachine) -> PanelItemMachine.MenuEventAction {
        indicator.menuEvent(id: Fixtures.id(of: label, in: indicator)!, event: "clicked")
    }

    @Test func completeAsksTheAgentToCompleteThatTimer() {
        var indicator = Fixtures.shown([Fixtures.timer(), Fixtures.timer(Fixtures.leo, name: "Leo")])
        #expect(click("Complete Leo's sleep", in: &indicator) == .complete(Fixtures.leo))
    }

    @Test func openAsksTheAgentToOpenThatTimer() {
        var indicator = Fixtures.shown()
        #expect(click("Open Maya's sleep", in: &indicator) == .open(Fixtures.maya, activationToken: nil))
    }

    @Test func openTheAppOpensTheApp() {
        var indicator = Fixtures.shown()
        #expect(click("Open Dreams for Littles", in: &indicator) == .openApp(activationToken: nil))
    }

    @Test func aStateLineDoesNothing() {
        var indicator = Fixtures.shown([Fixtures.timer(phase: .saving(waitingForNetwork: false))])
        #expect(click("Saving Maya's sleep…", in: &indicator) == .ignored)
    }

    @Test(arguments: ["opened", "closed", "hovered", "Clicked", ""])
    func eventsOtherThanAClickDoNothing(_ event: String) {
        var indicator = Fixtures.shown()
        let complete = Fixtures.id(of: "Complete Maya's sleep", in: indicator)!
        #expect(indicator.menuEvent(id: complete, event: event) == .ignored)
    }

    @Test func theRootAndTheSeparatorDoNothing() {
        var indicator = Fixtures.shown()
        #expect(indicator.menuEvent(id: 0, event: "clicked") == .ignored)
        #expect(indicator.menuEvent(id: indicator.state.menu.items[2].id, event: "clicked") == .ignored)
    }

    @Test func aStaleCompleteDoesNothingOnceTheTimerIsSaving() {
        var indicator = Fixtures.shown()
        let complete = Fixtures.id(of: "Complete Maya's sleep", in: indicator)!
        _ = indicator.timersChanged([Fixtures.timer(phase: .saving(waitingForNetwork: false))], now: now)
        #expect(indicator.menuEvent(id: complete, event: "clicked") == .unknownItem)
    }

    @Test func anIDOfAGoneTimerNeverPointsAtAnotherTimer() {
        var indicator = Fixtures.shown()
        let oldIDs = indicator.state.menu.items.map(\.id).filter { $0 >= 16 }
        _ = indicator.timersChanged([], now: now)
        _ = indicator.timersChanged([Fixtures.timer(Fixtures.leo, name: "Leo")], now: now)
        let newIDs = indicator.state.menu.items.map(\.id).filter { $0 >= 16 }
        #expect(Set(oldIDs).isDisjoint(with: newIDs))
        for id in oldIDs { #expect(indicator.menuEvent(id: id, event: "clicked") == .unknownItem) }
    }

    @Test func aTimerThatComesBackGetsNewIDs() {
        var indicator = Fixtures.shown()
        let complete = Fixtures.id(of: "Complete Maya's sleep", in: indicator)!
        _ = indicator.timersChanged([Fixtures.timer(phase: .saving(waitingForNetwork: false))], now: now)
        _ = indicator.timersChanged([Fixtures.timer()], now: now)
        #expect(Fixtures.id(of: "Complete Maya's sleep", in: indicator) != complete)
        #expect(indicator.menuEvent(id: complete, event: "clicked") == .unknownItem)
    }

    @Test func anIDNeverShownDoesNothing() {
        var indicator = Fixtures.shown()
        for id: Int32 in [-1, 3, 15, 9999, .max] {
            #expect(indicator.menuEvent(id: id, event: "clicked") == .unknownItem)
        }
    }

    @Test func theSeparatorIsGoneWithTheLastTimer() {
        var indicator = Fixtures.shown([], visibility: .always)
        #expect(indicator.menuEvent(id: 1, event: "clicked") == .unknownItem)
    }

    @Test func activateOpensTheMostRecentTimer() {
        var indicator = Fixtures.shown([
            Fixtures.timer(startedMinutesAgo: 97), Fixtures.timer(Fixtures.leo, name: "Leo", startedMinutesAgo: 12),
            Fixtures.timer(Fixtures.zoe, name: "Zoë", startedMinutesAgo: 2, phase: .saved(minutes: 40)),
        ])
        #expect(indicator.activated() == .open(Fixtures.leo, activationToken: nil))
    }

    @Test func activateWithNoTimerOpensTheApp() {
        var indicator = Fixtures.shown([], visibility: .always)
        #expect(indicator.activated() == .openApp(activationToken: nil))
    }

    @Test func theHostsActivationTokenGoesWithTheNextOpeningOnly() {
        var indicator = Fixtures.shown()
        indicator.activationTokenProvided("token-42")
        #expect(click("Open Maya's sleep", in: &indicator) == .open(Fixtures.maya, activationToken: "token-42"))
        #expect(indicator.activated() == .open(Fixtures.maya, activationToken: nil))
    }

    @Test func anEmptyOrHugeActivationTokenIsNotKept() {
        var indicator = Fixtures.shown()
        indicator.activationTokenProvided("")
        indicator.activationTokenProvided(String(repeating: "x", count: PanelItemMachine.maximumActivationTokenLength + 1))
        #expect(indicator.activated() == .open(Fixtures.maya, activationToken: nil))
    }

    @Test func anActivationTokenOfTheLongestLengthKeptIsKept() {
        var indicator = Fixtures.shown()
        let longest = String(repeating: "x", count: PanelItemMachine.maximumActivationTokenLength)
        indicator.activationTokenProvided(longest)
        #expect(indicator.activated() == .open(Fixtures.maya, activationToken: longest))
    }

    @Test func completeGoesNowhereButTheAgent() {
        // A Complete is an action for the agent, which records it in its
        // outbox: the indicator never marks anything saved by itself.
        var indicator = Fixtures.shown()
        _ = click("Complete Maya's sleep", in: &indicator)
        #expect(indicator.state.timers == [Fixtures.timer()])
    }
}
