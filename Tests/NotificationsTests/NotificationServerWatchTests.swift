@testable import Notifications
import AgentWorkflows
import DFLTestSupport
import SleepTimerCore
import Testing

/// The watch's part in the agent's one schedule: after every event it
/// names the moment ServerDiscoveryMachine waits for, and nothing else
/// wakes it.
@Suite struct NotificationServerWatchTests {
    typealias Step = NotificationServerWatch.Step
    let now = Fixtures.now

    func steps(
        _ discovery: inout ServerDiscoveryMachine, _ event: (inout ServerDiscoveryMachine) -> [Step]
    ) -> [Step] {
        NotificationServerWatch.steps(in: &discovery, after: event)
    }

    func machine() -> ServerDiscoveryMachine {
        ServerDiscoveryMachine(settings: .init(backoff: Backoff(first: .milliseconds(250), longest: .seconds(10))))
    }

    /// The first owner has answered both questions with an error.
    func failedOnce(_ discovery: inout ServerDiscoveryMachine) -> [Step] {
        _ = steps(&discovery) { $0.ownerChanged(":1.5").map(Step.init) }
        _ = steps(&discovery) { $0.capabilitiesAnswered(owner: ":1.5", nil, now: now).map(Step.init) }
        return steps(&discovery) {
            $0.informationAnswered(owner: ":1.5", name: "gnome-shell", version: "43.9", now: now).map(Step.init)
        }
    }

    @Test func aNewOwnerIsAskedAndNoWakeIsWanted() {
        var discovery = machine()
        #expect(steps(&discovery) { $0.ownerChanged(":1.5").map(Step.init) } == [.ask(owner: ":1.5"), .wakeAt(nil)])
    }

    @Test func anErrorAsksForAWakeAfterTheFirstWait() {
        var discovery = machine()
        _ = steps(&discovery) { $0.ownerChanged(":1.5").map(Step.init) }
        #expect(steps(&discovery) { $0.capabilitiesAnswered(owner: ":1.5", nil, now: now).map(Step.init) } == [.wakeAt(nil)])
        let answered = steps(&discovery) {
            $0.informationAnswered(owner: ":1.5", name: "gnome-shell", version: "43.9", now: now).map(Step.init)
        }
        #expect(answered.last == .wakeAt(now.adding(milliseconds: 250)))
        #expect(answered.dropLast().allSatisfy { if case .log = $0 { true } else { false } })
    }

    @Test func theWakeAsksAgainAndWantsNoOtherUntilTheNextError() {
        var discovery = machine()
        _ = failedOnce(&discovery)
        #expect(steps(&discovery) { $0.woke(now: now.adding(milliseconds: 250)).map { [Step($0)] } ?? [] }
            == [.ask(owner: ":1.5"), .wakeAt(nil)])
    }

    /// The schedule forgot the moment when it woke the watch: an early wake
    /// names it again.
    @Test func anEarlyWakeNamesTheSameMomentAgain() {
        var discovery = machine()
        _ = failedOnce(&discovery)
        #expect(steps(&discovery) { $0.woke(now: now.adding(milliseconds: 100)).map { [Step($0)] } ?? [] }
            == [.wakeAt(now.adding(milliseconds: 250))])
    }

    @Test func theServerLeavingWhileAWakeWaitsCancelsIt() {
        var discovery = machine()
        _ = failedOnce(&discovery)
        #expect(steps(&discovery) { $0.ownerChanged(nil).map(Step.init) }.last == .wakeAt(nil))
    }

    /// Each of the machine's actions becomes the step that carries it out.
    @Test func eachActionBecomesItsStep() {
        let server = NotificationServer.portal(owner: ":1.9", version: 1)
        #expect(Step(ServerDiscoveryMachine.OwnerChangedAction.ask(owner: ":1.5")) == .ask(owner: ":1.5"))
        #expect(Step(ServerDiscoveryMachine.OwnerChangedAction.reportNoServer) == .report(nil))
        #expect(Step(ServerDiscoveryMachine.OwnerChangedAction.log(.notice, "gone")) == .log(.notice, "gone"))
        #expect(Step(ServerDiscoveryMachine.AnsweredAction.askDoNotDisturb) == .askDoNotDisturb)
        #expect(Step(ServerDiscoveryMachine.AnsweredAction.report(server)) == .report(server))
        #expect(Step(ServerDiscoveryMachine.AnsweredAction.log(.info, "found")) == .log(.info, "found"))
        #expect(Step(ServerDiscoveryMachine.WokeAction.ask(owner: ":1.6")) == .ask(owner: ":1.6"))
        #expect(Step(ServerDiscoveryMachine.DoNotDisturbHeardAction.ask(owner: ":1.7")) == .ask(owner: ":1.7"))
        #expect(Step(ServerDiscoveryMachine.DoNotDisturbHeardAction.log(.notice, "on")) == .log(.notice, "on"))
    }
}
