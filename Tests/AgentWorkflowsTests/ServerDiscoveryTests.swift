import AgentWorkflows
import SleepTimerCore
import Testing

@Suite struct ServerDiscoveryTests {
    let now = WorkflowFixtures.now
    let gnome = NotificationServer(
        owner: ":1.5", displayName: "gnome-shell 43.9",
        traits: NotificationServerTraits(capabilities: ["actions", "body"], serverName: "gnome-shell"))

    func reports(_ actions: [ServerDiscovery.Action]) -> [NotificationServer?] {
        actions.compactMap { if case .report(let server) = $0 { server } else { nil } }
    }

    func answered(_ discovery: inout ServerDiscovery, capabilities: [String]? = ["actions", "body"], name: String? = "gnome-shell",
                  at moment: Instant? = nil) -> [ServerDiscovery.Action] {
        let at = moment ?? now
        return discovery.handle(.capabilities(owner: ":1.5", capabilities, now: at))
            + discovery.handle(.information(owner: ":1.5", name: name, version: "43.9", now: at))
    }

    @Test func aNewOwnerIsAskedWhatItCanDo() {
        var discovery = ServerDiscovery()
        #expect(discovery.handle(.ownerChanged(":1.5", now: now)) == [.ask(owner: ":1.5")])
    }

    @Test func bothAnswersMakeTheServer() {
        var discovery = ServerDiscovery()
        _ = discovery.handle(.ownerChanged(":1.5", now: now))
        #expect(discovery.handle(.capabilities(owner: ":1.5", ["actions", "body"], now: now)).isEmpty)
        #expect(reports(discovery.handle(.information(owner: ":1.5", name: "gnome-shell", version: "43.9", now: now))) == [gnome])
        #expect(discovery.wakeAt == nil)
    }

    @Test func anErrorIsNotKnownYetAndIsAskedAgainAfterAShortWait() {
        var discovery = ServerDiscovery(backoff: Backoff(first: .milliseconds(250), longest: .milliseconds(10_000)))
        _ = discovery.handle(.ownerChanged(":1.5", now: now))
        #expect(reports(answered(&discovery, capabilities: nil)).isEmpty)
        #expect(discovery.wakeAt == now.adding(milliseconds: 250))
        #expect(discovery.handle(.wake(now: now.adding(milliseconds: 250))) == [.ask(owner: ":1.5")])
        #expect(reports(answered(&discovery, at: now.adding(milliseconds: 300))) == [gnome])
    }

    @Test func theWaitDoublesUpToItsLongest() {
        var discovery = ServerDiscovery(backoff: Backoff(first: .milliseconds(250), longest: .milliseconds(1_000)))
        _ = discovery.handle(.ownerChanged(":1.5", now: now))
        var waits: [Int64] = []
        var at = now
        for _ in 0..<5 {
            _ = answered(&discovery, name: nil, at: at)
            waits.append(discovery.wakeAt!.milliseconds(since: at))
            at = discovery.wakeAt!
            _ = discovery.handle(.wake(now: at))
        }
        #expect(waits == [250, 500, 1_000, 1_000, 1_000])
    }

    @Test func answersOfAnOwnerThatLeftAreDropped() {
        var discovery = ServerDiscovery()
        _ = discovery.handle(.ownerChanged(":1.5", now: now))
        _ = discovery.handle(.ownerChanged(":1.8", now: now))
        #expect(answered(&discovery).isEmpty)
    }

    @Test func aNewOwnerStartsAfresh() {
        var discovery = ServerDiscovery()
        _ = discovery.handle(.ownerChanged(":1.5", now: now))
        _ = answered(&discovery, capabilities: nil)
        #expect(discovery.handle(.ownerChanged(":1.8", now: now)) == [.ask(owner: ":1.8")])
        #expect(discovery.wakeAt == nil)
    }

    @Test func theServerLeavingIsReportedOnce() {
        var discovery = ServerDiscovery()
        _ = discovery.handle(.ownerChanged(":1.5", now: now))
        _ = answered(&discovery)
        #expect(reports(discovery.handle(.ownerChanged(nil, now: now))) == [nil])
        #expect(discovery.handle(.ownerChanged(nil, now: now)).isEmpty)
    }

    @Test func anEarlyWakeAsksNothing() {
        var discovery = ServerDiscovery(backoff: Backoff(first: .milliseconds(250), longest: .milliseconds(1_000)))
        _ = discovery.handle(.ownerChanged(":1.5", now: now))
        _ = answered(&discovery, capabilities: nil)
        #expect(discovery.handle(.wake(now: now.adding(milliseconds: 100))).isEmpty)
    }

    // MARK: Do Not Disturb

    func xfce(_ discovery: inout ServerDiscovery) -> [ServerDiscovery.Action] {
        _ = discovery.handle(.ownerChanged(":1.5", now: now))
        return discovery.handle(.capabilities(owner: ":1.5", ["action-icons", "actions", "body", "body-markup"], now: now))
            + discovery.handle(.information(owner: ":1.5", name: "Xfce Notify Daemon", version: "0.9.7", now: now))
    }

    @Test func xfceNotifydsDoNotDisturbIsAskedForOnce() {
        var discovery = ServerDiscovery()
        let actions = xfce(&discovery)
        #expect(actions.contains(.askDoNotDisturb))
        #expect(reports(actions).map { $0?.traits.actions } == [true])
        #expect(!answered(&discovery).contains(.askDoNotDisturb))
    }

    @Test func xfceNotifyd07KeepsItsButtonsDuringDoNotDisturb() {
        var discovery = ServerDiscovery()
        _ = discovery.handle(.ownerChanged(":1.5", now: now))
        _ = discovery.handle(.capabilities(owner: ":1.5", ["actions", "body"], now: now))
        let actions = discovery.handle(.information(owner: ":1.5", name: "Xfce Notify Daemon", version: "0.7.3", now: now))
        #expect(!actions.contains(.askDoNotDisturb))
        #expect(discovery.handle(.doNotDisturb(true, now: now)).isEmpty)
        #expect(ServerDiscovery.hidesDuringDoNotDisturb(name: "Xfce Notify Daemon", version: "0.8.2"))
        #expect(ServerDiscovery.hidesDuringDoNotDisturb(name: "Xfce Notify Daemon", version: "0.10"))
        #expect(!ServerDiscovery.hidesDuringDoNotDisturb(name: "Xfce Notify Daemon", version: "0.8.1"))
        #expect(!ServerDiscovery.hidesDuringDoNotDisturb(name: "Plasma", version: "6.3.6"))
    }

    @Test func otherServersAreNotAskedAboutDoNotDisturbNorTouchedByIt() {
        var discovery = ServerDiscovery()
        _ = discovery.handle(.ownerChanged(":1.5", now: now))
        #expect(!answered(&discovery).contains(.askDoNotDisturb))
        #expect(discovery.handle(.doNotDisturb(true, now: now)).isEmpty)
    }

    func xfceAnswered(_ discovery: inout ServerDiscovery, capabilities: [String] = ["action-icons", "actions", "body"])
        -> [ServerDiscovery.Action]
    {
        discovery.handle(.capabilities(owner: ":1.5", capabilities, now: now))
            + discovery.handle(.information(owner: ":1.5", name: "Xfce Notify Daemon", version: "0.9.7", now: now))
    }

    @Test func duringDoNotDisturbTheServerHasNoActionsAndAfterItHasThemAgain() {
        var discovery = ServerDiscovery()
        _ = xfce(&discovery)
        // Asked again, since a later xfce4-notifyd changes its capabilities too.
        let on = discovery.handle(.doNotDisturb(true, now: now))
        #expect(on == [.log(.notice, "Do Not Disturb is on: the notifications offer no buttons until it ends."), .ask(owner: ":1.5")])
        let during = reports(xfceAnswered(&discovery))
        #expect(during.map { $0?.traits.actions } == [false])
        #expect(during.first??.owner == ":1.5")
        #expect(discovery.handle(.doNotDisturb(true, now: now)).isEmpty)
        #expect(discovery.handle(.doNotDisturb(false, now: now)).last == .ask(owner: ":1.5"))
        #expect(reports(xfceAnswered(&discovery)).map { $0?.traits.actions } == [true])
    }

    @Test func aServerThatLeavesOutItsActionsDuringDoNotDisturbHasThemBackAfter() {
        var discovery = ServerDiscovery()
        #expect(discovery.handle(.doNotDisturb(true, now: now)).isEmpty)
        _ = discovery.handle(.ownerChanged(":1.5", now: now))
        #expect(reports(xfceAnswered(&discovery, capabilities: ["body"])).map { $0?.traits.actions } == [false])
        _ = discovery.handle(.doNotDisturb(false, now: now))
        #expect(reports(xfceAnswered(&discovery)).map { $0?.traits.actions } == [true])
    }

    @Test func doNotDisturbHeardBeforeTheServerAnsweredCountsFromTheStart() {
        var discovery = ServerDiscovery()
        #expect(discovery.handle(.doNotDisturb(true, now: now)).isEmpty)
        #expect(reports(xfce(&discovery)).map { $0?.traits.actions } == [false])
    }

    @Test func theVersionReachesTheTraits() {
        var discovery = ServerDiscovery()
        _ = discovery.handle(.ownerChanged(":1.5", now: now))
        _ = discovery.handle(.capabilities(owner: ":1.5", ["actions", "body"], now: now))
        let reported = reports(discovery.handle(.information(owner: ":1.5", name: "gnome-shell", version: "48.7", now: now)))
        #expect(reported.first??.traits.bannersUnlessLowUrgency == true)
        #expect(reported.first??.displayName == "gnome-shell 48.7")
    }
}

@Suite struct ServerDiscoveryEdgeTests {
    let now = WorkflowFixtures.now

    func reports(_ actions: [ServerDiscovery.Action]) -> [NotificationServer?] {
        actions.compactMap { if case .report(let server) = $0 { server } else { nil } }
    }

    func infoLogs(_ actions: [ServerDiscovery.Action]) -> [String] {
        actions.compactMap { if case .log(.info, let line) = $0 { line } else { nil } }
    }

    func answer(_ discovery: inout ServerDiscovery, owner: String = ":1.5", capabilities: [String]? = ["actions", "body"],
                name: String? = "gnome-shell", version: String = "43.9", at moment: Instant? = nil) -> [ServerDiscovery.Action] {
        discovery.handle(.capabilities(owner: owner, capabilities, now: moment ?? now))
            + discovery.handle(.information(owner: owner, name: name, version: version, now: moment ?? now))
    }

    @Test func theSameOwnerAnnouncedAgainIsNotAskedAgain() {
        var discovery = ServerDiscovery()
        #expect(discovery.handle(.ownerChanged(":1.5", now: now)) == [.ask(owner: ":1.5")])
        #expect(discovery.handle(.ownerChanged(":1.5", now: now)).isEmpty)
        #expect(reports(answer(&discovery)).count == 1)
        #expect(discovery.handle(.ownerChanged(":1.5", now: now)).isEmpty)
    }

    @Test func aFormerOwnersCapabilitiesDoNotCompleteTheNewOwnersAnswers() {
        var discovery = ServerDiscovery()
        _ = discovery.handle(.ownerChanged(":1.5", now: now))
        _ = discovery.handle(.ownerChanged(":1.8", now: now))
        #expect(answer(&discovery, owner: ":1.5").isEmpty)
        #expect(discovery.handle(.information(owner: ":1.8", name: "dunst", version: "1.9", now: now)).isEmpty)
    }

    @Test func aFormerOwnersInformationDoesNotCompleteTheNewOwnersAnswers() {
        var discovery = ServerDiscovery()
        _ = discovery.handle(.ownerChanged(":1.5", now: now))
        _ = discovery.handle(.ownerChanged(":1.8", now: now))
        #expect(answer(&discovery, owner: ":1.5").isEmpty)
        #expect(discovery.handle(.capabilities(owner: ":1.8", ["body"], now: now)).isEmpty)
    }

    @Test func answersArrivingWhileARetryWaitsAreDropped() {
        var discovery = ServerDiscovery(backoff: Backoff(first: .milliseconds(250), longest: .milliseconds(1_000)))
        _ = discovery.handle(.ownerChanged(":1.5", now: now))
        _ = answer(&discovery, capabilities: nil)
        let wake = discovery.wakeAt
        #expect(wake == now.adding(milliseconds: 250))
        #expect(discovery.handle(.capabilities(owner: ":1.5", ["actions", "body"], now: now.adding(milliseconds: 10))).isEmpty)
        #expect(discovery.handle(.information(owner: ":1.5", name: "gnome-shell", version: "43.9", now: now.adding(milliseconds: 10))).isEmpty)
        #expect(discovery.wakeAt == wake)
    }

    @Test func theFirstRetryIsANoticeAndTheNextAreDebug() {
        var discovery = ServerDiscovery(backoff: Backoff(first: .milliseconds(250), longest: .milliseconds(1_000)))
        _ = discovery.handle(.ownerChanged(":1.5", now: now))
        let first = answer(&discovery, capabilities: nil)
        let at = discovery.wakeAt!
        _ = discovery.handle(.wake(now: at))
        let second = answer(&discovery, capabilities: nil, at: at)
        func priorities(_ actions: [ServerDiscovery.Action]) -> [LogPriority] {
            actions.compactMap { if case .log(let priority, _) = $0 { priority } else { nil } }
        }
        #expect(priorities(first) == [.notice])
        #expect(priorities(second) == [.debug])
    }

    @Test func aVersionWithLettersAfterItsDigitsReadsItsDigits() {
        #expect(ServerDiscovery.hidesDuringDoNotDisturb(name: "Xfce Notify Daemon", version: "0.10rc1"))
        #expect(ServerDiscovery.hidesDuringDoNotDisturb(name: "Xfce Notify Daemon", version: "0.8.2git"))
    }

    func xfce(_ discovery: inout ServerDiscovery, owner: String = ":1.5", capabilities: [String] = ["actions", "body"])
        -> [ServerDiscovery.Action]
    {
        answer(&discovery, owner: owner, capabilities: capabilities, name: "Xfce Notify Daemon", version: "0.9.7")
    }

    @Test func eachNewXfceOwnerIsAskedAboutDoNotDisturb() {
        var discovery = ServerDiscovery()
        _ = discovery.handle(.ownerChanged(":1.5", now: now))
        #expect(xfce(&discovery).contains(.askDoNotDisturb))
        _ = discovery.handle(.ownerChanged(":1.6", now: now))
        #expect(xfce(&discovery, owner: ":1.6").contains(.askDoNotDisturb))
    }

    @Test func doNotDisturbAfterTheServerLeftAsksNoOne() {
        var discovery = ServerDiscovery()
        _ = discovery.handle(.ownerChanged(":1.5", now: now))
        _ = xfce(&discovery)
        _ = discovery.handle(.ownerChanged(nil, now: now))
        #expect(discovery.handle(.ownerChanged(":1.6", now: now)) == [.ask(owner: ":1.6")])
        #expect(discovery.handle(.doNotDisturb(true, now: now)).isEmpty)
        #expect(reports(xfce(&discovery, owner: ":1.6")).map { $0?.traits.actions } == [false])
    }

    @Test func doNotDisturbWhileARetryWaitsIsLeftToTheRetry() {
        var discovery = ServerDiscovery(backoff: Backoff(first: .milliseconds(250), longest: .milliseconds(1_000)))
        _ = discovery.handle(.ownerChanged(":1.5", now: now))
        _ = xfce(&discovery)
        #expect(discovery.handle(.doNotDisturb(true, now: now)).last == .ask(owner: ":1.5"))
        _ = answer(&discovery, capabilities: nil, name: "Xfce Notify Daemon", version: "0.9.7")
        let at = discovery.wakeAt!
        #expect(discovery.handle(.doNotDisturb(false, now: now)).isEmpty)
        #expect(discovery.handle(.wake(now: at)) == [.ask(owner: ":1.5")])
        // Do Not Disturb is off again: the server reported before it, with
        // its actions, stands.
        #expect(reports(xfce(&discovery)).isEmpty)
    }

    @Test func theSameServerAnsweredAgainIsNotReportedAgainNorLogged() {
        var discovery = ServerDiscovery()
        _ = discovery.handle(.ownerChanged(":1.5", now: now))
        let first = xfce(&discovery, capabilities: ["body"])
        #expect(reports(first).count == 1)
        #expect(infoLogs(first).count == 1)
        _ = discovery.handle(.doNotDisturb(true, now: now))
        // Without actions either way: the same server as before.
        #expect(xfce(&discovery, capabilities: ["body"]).isEmpty)
        _ = discovery.handle(.doNotDisturb(false, now: now))
        let again = xfce(&discovery, capabilities: ["actions", "body"])
        #expect(reports(again).map { $0?.traits.actions } == [true])
        #expect(infoLogs(again).isEmpty)
    }
}
