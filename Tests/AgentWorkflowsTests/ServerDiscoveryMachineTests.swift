@testable import AgentWorkflows
import SleepTimerCore
import Testing

@Suite struct ServerDiscoveryMachineTests {
    let now = WorkflowFixtures.now
    let gnome = NotificationServer(
        owner: ":1.5", displayName: "gnome-shell 43.9",
        traits: NotificationServerTraits(capabilities: ["actions", "body"], serverName: "gnome-shell"))

    func reports(_ actions: [ServerDiscoveryMachine.AnsweredAction]) -> [NotificationServer?] {
        actions.compactMap { if case .report(let server) = $0 { server } else { nil } }
    }

    func answered(_ discovery: inout ServerDiscoveryMachine, capabilities: [String]? = ["actions", "body"], name: String? = "gnome-shell",
                  at moment: Instant? = nil) -> [ServerDiscoveryMachine.AnsweredAction] {
        let at = moment ?? now
        return discovery.capabilitiesAnswered(owner: ":1.5", capabilities, now: at)
            + discovery.informationAnswered(owner: ":1.5", name: name, version: "43.9", now: at)
    }

    @Test func aNewOwnerIsAskedWhatItCanDo() {
        var discovery = ServerDiscoveryMachine()
        #expect(discovery.ownerChanged(":1.5") == [.ask(owner: ":1.5")])
    }

    @Test func bothAnswersMakeTheServer() {
        var discovery = ServerDiscoveryMachine()
        _ = discovery.ownerChanged(":1.5")
        #expect(discovery.capabilitiesAnswered(owner: ":1.5", ["actions", "body"], now: now).isEmpty)
        #expect(reports(discovery.informationAnswered(owner: ":1.5", name: "gnome-shell", version: "43.9", now: now)) == [gnome])
        #expect(discovery.state.wakeAt == nil)
    }

    @Test func anErrorIsNotKnownYetAndIsAskedAgainAfterAShortWait() {
        var discovery = ServerDiscoveryMachine(settings: .init(backoff: Backoff(first: .milliseconds(250), longest: .milliseconds(10_000))))
        _ = discovery.ownerChanged(":1.5")
        #expect(reports(answered(&discovery, capabilities: nil)).isEmpty)
        #expect(discovery.state.wakeAt == now.adding(milliseconds: 250))
        #expect(discovery.woke(now: now.adding(milliseconds: 250)) == .ask(owner: ":1.5"))
        #expect(reports(answered(&discovery, at: now.adding(milliseconds: 300))) == [gnome])
    }

    @Test func theWaitStartsAtAQuarterSecondAndGrowsToTenSeconds() {
        #expect(ServerDiscoveryMachine().settings.backoff == Backoff(first: .milliseconds(250), longest: .seconds(10)))
    }

    /// At the start the machine knows of no owner, no answer, no server,
    /// no Do Not Disturb, and has asked nothing.
    @Test func theStartKnowsNothingAndHasAskedNothing() {
        let state = ServerDiscoveryMachine().state
        #expect(state.owner == nil)
        #expect(state.capabilities == nil)
        #expect(state.information == nil)
        #expect(state.failures == 0)
        #expect(state.reported == nil)
        #expect(!state.doNotDisturb)
        #expect(!state.reportedHides)
        #expect(!state.askedDoNotDisturb)
        #expect(state.wakeAt == nil)
    }

    /// What the machine holds once a server is reported: its owner, both
    /// answers, no retry waiting.
    @Test func theStateHoldsTheOwnerItsAnswersAndTheServerReported() {
        var discovery = ServerDiscoveryMachine()
        #expect(discovery.state == ServerDiscoveryMachine.State())
        _ = discovery.ownerChanged(":1.5")
        _ = answered(&discovery)
        #expect(discovery.state.owner == ":1.5")
        #expect(discovery.state.capabilities == .some(["actions", "body"]))
        #expect(discovery.state.information == .some(ServerDiscoveryMachine.ServerInformation(name: "gnome-shell", version: "43.9")))
        #expect(discovery.state.reported == gnome)
        #expect(discovery.state.failures == 0)
        #expect(discovery.state.wakeAt == nil)
    }

    @Test func theWaitDoublesUpToItsLongest() {
        var discovery = ServerDiscoveryMachine(settings: .init(backoff: Backoff(first: .milliseconds(250), longest: .milliseconds(1_000))))
        _ = discovery.ownerChanged(":1.5")
        var waits: [Int64] = []
        var at = now
        for _ in 0..<5 {
            _ = answered(&discovery, name: nil, at: at)
            waits.append(discovery.state.wakeAt!.milliseconds(since: at))
            at = discovery.state.wakeAt!
            _ = discovery.woke(now: at)
        }
        #expect(waits == [250, 500, 1_000, 1_000, 1_000])
    }

    @Test func answersOfAnOwnerThatLeftAreDropped() {
        var discovery = ServerDiscoveryMachine()
        _ = discovery.ownerChanged(":1.5")
        _ = discovery.ownerChanged(":1.8")
        #expect(answered(&discovery).isEmpty)
    }

    @Test func aNewOwnerStartsAfresh() {
        var discovery = ServerDiscoveryMachine()
        _ = discovery.ownerChanged(":1.5")
        _ = answered(&discovery, capabilities: nil)
        #expect(discovery.ownerChanged(":1.8") == [.ask(owner: ":1.8")])
        #expect(discovery.state.wakeAt == nil)
    }

    @Test func theServerLeavingIsReportedOnce() {
        var discovery = ServerDiscoveryMachine()
        _ = discovery.ownerChanged(":1.5")
        _ = answered(&discovery)
        #expect(discovery.ownerChanged(nil) == [.log(.notice, "The notification server went away."), .reportNoServer])
        #expect(discovery.ownerChanged(nil).isEmpty)
    }

    @Test func anEarlyWakeAsksNothing() {
        var discovery = ServerDiscoveryMachine(settings: .init(backoff: Backoff(first: .milliseconds(250), longest: .milliseconds(1_000))))
        _ = discovery.ownerChanged(":1.5")
        _ = answered(&discovery, capabilities: nil)
        #expect(discovery.woke(now: now.adding(milliseconds: 100)) == nil)
    }

    // MARK: Do Not Disturb

    func xfce(_ discovery: inout ServerDiscoveryMachine) -> [ServerDiscoveryMachine.AnsweredAction] {
        _ = discovery.ownerChanged(":1.5")
        return discovery.capabilitiesAnswered(owner: ":1.5", ["action-icons", "actions", "body", "body-markup"], now: now)
            + discovery.informationAnswered(owner: ":1.5", name: "Xfce Notify Daemon", version: "0.9.7", now: now)
    }

    @Test func xfceNotifydsDoNotDisturbIsAskedForOnce() {
        var discovery = ServerDiscoveryMachine()
        let actions = xfce(&discovery)
        #expect(actions.contains(.askDoNotDisturb))
        #expect(reports(actions).map { $0?.traits.actions } == [true])
        #expect(!answered(&discovery).contains(.askDoNotDisturb))
    }

    @Test func xfceNotifyd07KeepsItsButtonsDuringDoNotDisturb() {
        var discovery = ServerDiscoveryMachine()
        _ = discovery.ownerChanged(":1.5")
        _ = discovery.capabilitiesAnswered(owner: ":1.5", ["actions", "body"], now: now)
        let actions = discovery.informationAnswered(owner: ":1.5", name: "Xfce Notify Daemon", version: "0.7.3", now: now)
        #expect(!actions.contains(.askDoNotDisturb))
        #expect(discovery.doNotDisturbHeard(true).isEmpty)
        #expect(ServerDiscoveryMachine.hidesDuringDoNotDisturb(name: "Xfce Notify Daemon", version: "0.8.2"))
        #expect(ServerDiscoveryMachine.hidesDuringDoNotDisturb(name: "Xfce Notify Daemon", version: "0.10"))
        #expect(!ServerDiscoveryMachine.hidesDuringDoNotDisturb(name: "Xfce Notify Daemon", version: "0.8.1"))
        #expect(!ServerDiscoveryMachine.hidesDuringDoNotDisturb(name: "Plasma", version: "6.3.6"))
    }

    @Test func otherServersAreNotAskedAboutDoNotDisturbNorTouchedByIt() {
        var discovery = ServerDiscoveryMachine()
        _ = discovery.ownerChanged(":1.5")
        #expect(!answered(&discovery).contains(.askDoNotDisturb))
        #expect(discovery.doNotDisturbHeard(true).isEmpty)
    }

    func xfceAnswered(_ discovery: inout ServerDiscoveryMachine, capabilities: [String] = ["action-icons", "actions", "body"])
        -> [ServerDiscoveryMachine.AnsweredAction]
    {
        discovery.capabilitiesAnswered(owner: ":1.5", capabilities, now: now)
            + discovery.informationAnswered(owner: ":1.5", name: "Xfce Notify Daemon", version: "0.9.7", now: now)
    }

    @Test func duringDoNotDisturbTheServerHasNoActionsAndAfterItHasThemAgain() {
        var discovery = ServerDiscoveryMachine()
        _ = xfce(&discovery)
        // Asked again, since a later xfce4-notifyd changes its capabilities too.
        let on = discovery.doNotDisturbHeard(true)
        #expect(on == [.log(.notice, "Do Not Disturb is on: the notifications offer no buttons until it ends."), .ask(owner: ":1.5")])
        let during = reports(xfceAnswered(&discovery))
        #expect(during.map { $0?.traits.actions } == [false])
        #expect(during.first??.owner == ":1.5")
        #expect(discovery.doNotDisturbHeard(true).isEmpty)
        #expect(discovery.doNotDisturbHeard(false).last == .ask(owner: ":1.5"))
        #expect(reports(xfceAnswered(&discovery)).map { $0?.traits.actions } == [true])
    }

    @Test func aServerThatLeavesOutItsActionsDuringDoNotDisturbHasThemBackAfter() {
        var discovery = ServerDiscoveryMachine()
        #expect(discovery.doNotDisturbHeard(true).isEmpty)
        _ = discovery.ownerChanged(":1.5")
        #expect(reports(xfceAnswered(&discovery, capabilities: ["body"])).map { $0?.traits.actions } == [false])
        _ = discovery.doNotDisturbHeard(false)
        #expect(reports(xfceAnswered(&discovery)).map { $0?.traits.actions } == [true])
    }

    @Test func doNotDisturbHeardBeforeTheServerAnsweredCountsFromTheStart() {
        var discovery = ServerDiscoveryMachine()
        #expect(discovery.doNotDisturbHeard(true).isEmpty)
        #expect(reports(xfce(&discovery)).map { $0?.traits.actions } == [false])
    }

    @Test func theVersionReachesTheTraits() {
        var discovery = ServerDiscoveryMachine()
        _ = discovery.ownerChanged(":1.5")
        _ = discovery.capabilitiesAnswered(owner: ":1.5", ["actions", "body"], now: now)
        let reported = reports(discovery.informationAnswered(owner: ":1.5", name: "gnome-shell", version: "48.7", now: now))
        #expect(reported.first??.traits.bannersUnlessLowUrgency == true)
        #expect(reported.first??.displayName == "gnome-shell 48.7")
    }
}

@Suite struct ServerDiscoveryMachineEdgeTests {
    let now = WorkflowFixtures.now

    func reports(_ actions: [ServerDiscoveryMachine.AnsweredAction]) -> [NotificationServer?] {
        actions.compactMap { if case .report(let server) = $0 { server } else { nil } }
    }

    func infoLogs(_ actions: [ServerDiscoveryMachine.AnsweredAction]) -> [String] {
        actions.compactMap { if case .log(.info, let line) = $0 { line } else { nil } }
    }

    func answer(_ discovery: inout ServerDiscoveryMachine, owner: String = ":1.5", capabilities: [String]? = ["actions", "body"],
                name: String? = "gnome-shell", version: String = "43.9", at moment: Instant? = nil) -> [ServerDiscoveryMachine.AnsweredAction] {
        discovery.capabilitiesAnswered(owner: owner, capabilities, now: moment ?? now)
            + discovery.informationAnswered(owner: owner, name: name, version: version, now: moment ?? now)
    }

    @Test func theSameOwnerAnnouncedAgainIsNotAskedAgain() {
        var discovery = ServerDiscoveryMachine()
        #expect(discovery.ownerChanged(":1.5") == [.ask(owner: ":1.5")])
        #expect(discovery.ownerChanged(":1.5").isEmpty)
        #expect(reports(answer(&discovery)).count == 1)
        #expect(discovery.ownerChanged(":1.5").isEmpty)
    }

    @Test func aFormerOwnersCapabilitiesDoNotCompleteTheNewOwnersAnswers() {
        var discovery = ServerDiscoveryMachine()
        _ = discovery.ownerChanged(":1.5")
        _ = discovery.ownerChanged(":1.8")
        #expect(answer(&discovery, owner: ":1.5").isEmpty)
        #expect(discovery.informationAnswered(owner: ":1.8", name: "dunst", version: "1.9", now: now).isEmpty)
    }

    @Test func aFormerOwnersInformationDoesNotCompleteTheNewOwnersAnswers() {
        var discovery = ServerDiscoveryMachine()
        _ = discovery.ownerChanged(":1.5")
        _ = discovery.ownerChanged(":1.8")
        #expect(answer(&discovery, owner: ":1.5").isEmpty)
        #expect(discovery.capabilitiesAnswered(owner: ":1.8", ["body"], now: now).isEmpty)
    }

    @Test func answersArrivingWhileARetryWaitsAreDropped() {
        var discovery = ServerDiscoveryMachine(settings: .init(backoff: Backoff(first: .milliseconds(250), longest: .milliseconds(1_000))))
        _ = discovery.ownerChanged(":1.5")
        _ = answer(&discovery, capabilities: nil)
        let wake = discovery.state.wakeAt
        #expect(wake == now.adding(milliseconds: 250))
        #expect(discovery.capabilitiesAnswered(owner: ":1.5", ["actions", "body"], now: now.adding(milliseconds: 10)).isEmpty)
        #expect(discovery.informationAnswered(owner: ":1.5", name: "gnome-shell", version: "43.9", now: now.adding(milliseconds: 10)).isEmpty)
        #expect(discovery.state.wakeAt == wake)
    }

    @Test func theFirstRetryIsANoticeAndTheNextAreDebug() {
        var discovery = ServerDiscoveryMachine(settings: .init(backoff: Backoff(first: .milliseconds(250), longest: .milliseconds(1_000))))
        _ = discovery.ownerChanged(":1.5")
        let first = answer(&discovery, capabilities: nil)
        let at = discovery.state.wakeAt!
        _ = discovery.woke(now: at)
        let second = answer(&discovery, capabilities: nil, at: at)
        func priorities(_ actions: [ServerDiscoveryMachine.AnsweredAction]) -> [LogPriority] {
            actions.compactMap { if case .log(let priority, _) = $0 { priority } else { nil } }
        }
        #expect(priorities(first) == [.notice])
        #expect(priorities(second) == [.debug])
    }

    @Test func aVersionWithLettersAfterItsDigitsReadsItsDigits() {
        #expect(ServerDiscoveryMachine.hidesDuringDoNotDisturb(name: "Xfce Notify Daemon", version: "0.10rc1"))
        #expect(ServerDiscoveryMachine.hidesDuringDoNotDisturb(name: "Xfce Notify Daemon", version: "0.8.2git"))
    }

    func xfce(_ discovery: inout ServerDiscoveryMachine, owner: String = ":1.5", capabilities: [String] = ["actions", "body"])
        -> [ServerDiscoveryMachine.AnsweredAction]
    {
        answer(&discovery, owner: owner, capabilities: capabilities, name: "Xfce Notify Daemon", version: "0.9.7")
    }

    @Test func eachNewXfceOwnerIsAskedAboutDoNotDisturb() {
        var discovery = ServerDiscoveryMachine()
        _ = discovery.ownerChanged(":1.5")
        #expect(xfce(&discovery).contains(.askDoNotDisturb))
        _ = discovery.ownerChanged(":1.6")
        #expect(xfce(&discovery, owner: ":1.6").contains(.askDoNotDisturb))
    }

    @Test func doNotDisturbAfterTheServerLeftAsksNoOne() {
        var discovery = ServerDiscoveryMachine()
        _ = discovery.ownerChanged(":1.5")
        _ = xfce(&discovery)
        _ = discovery.ownerChanged(nil)
        #expect(discovery.ownerChanged(":1.6") == [.ask(owner: ":1.6")])
        #expect(discovery.doNotDisturbHeard(true).isEmpty)
        #expect(reports(xfce(&discovery, owner: ":1.6")).map { $0?.traits.actions } == [false])
    }

    @Test func doNotDisturbWhileARetryWaitsIsLeftToTheRetry() {
        var discovery = ServerDiscoveryMachine(settings: .init(backoff: Backoff(first: .milliseconds(250), longest: .milliseconds(1_000))))
        _ = discovery.ownerChanged(":1.5")
        _ = xfce(&discovery)
        #expect(discovery.doNotDisturbHeard(true).last == .ask(owner: ":1.5"))
        _ = answer(&discovery, capabilities: nil, name: "Xfce Notify Daemon", version: "0.9.7")
        let at = discovery.state.wakeAt!
        #expect(discovery.doNotDisturbHeard(false).isEmpty)
        #expect(discovery.woke(now: at) == .ask(owner: ":1.5"))
        // Do Not Disturb is off again: the server reported before it, with
        // its actions, stands.
        #expect(reports(xfce(&discovery)).isEmpty)
    }

    @Test func theSameServerAnsweredAgainIsNotReportedAgainNorLogged() {
        var discovery = ServerDiscoveryMachine()
        _ = discovery.ownerChanged(":1.5")
        let first = xfce(&discovery, capabilities: ["body"])
        #expect(reports(first).count == 1)
        #expect(infoLogs(first).count == 1)
        _ = discovery.doNotDisturbHeard(true)
        // Without actions either way: the same server as before.
        #expect(xfce(&discovery, capabilities: ["body"]).isEmpty)
        _ = discovery.doNotDisturbHeard(false)
        let again = xfce(&discovery, capabilities: ["actions", "body"])
        #expect(reports(again).map { $0?.traits.actions } == [true])
        #expect(infoLogs(again).isEmpty)
    }
}
