@testable import Notifications
import AgentWorkflows
import DFLTestSupport
import SleepTimerCore
import Testing

/// The watch's part in the agent's one schedule: after every event it
/// names the moment ServerDiscovery waits for, and nothing else wakes it.
@Suite struct NotificationServerWatchTests {
    let now = Fixtures.now

    func steps(_ event: ServerDiscovery.Event, _ discovery: inout ServerDiscovery) -> [NotificationServerWatch.Step] {
        NotificationServerWatch.steps(after: event, in: &discovery)
    }

    @Test func aNewOwnerIsAskedAndNoWakeIsWanted() {
        var discovery = ServerDiscovery(backoff: Backoff(first: .milliseconds(250), longest: .seconds(10)))
        #expect(steps(.ownerChanged(":1.5", now: now), &discovery) == [.discovery(.ask(owner: ":1.5")), .wakeAt(nil)])
    }

    @Test func anErrorAsksForAWakeAfterTheFirstWait() {
        var discovery = ServerDiscovery(backoff: Backoff(first: .milliseconds(250), longest: .seconds(10)))
        _ = steps(.ownerChanged(":1.5", now: now), &discovery)
        #expect(steps(.capabilities(owner: ":1.5", nil, now: now), &discovery) == [.wakeAt(nil)])
        let answered = steps(.information(owner: ":1.5", name: "gnome-shell", version: "43.9", now: now), &discovery)
        #expect(answered.last == .wakeAt(now.adding(milliseconds: 250)))
        #expect(answered.dropLast().allSatisfy { if case .discovery(.log) = $0 { true } else { false } })
    }

    @Test func theWakeAsksAgainAndWantsNoOtherUntilTheNextError() {
        var discovery = ServerDiscovery(backoff: Backoff(first: .milliseconds(250), longest: .seconds(10)))
        _ = steps(.ownerChanged(":1.5", now: now), &discovery)
        _ = steps(.capabilities(owner: ":1.5", nil, now: now), &discovery)
        _ = steps(.information(owner: ":1.5", name: "gnome-shell", version: "43.9", now: now), &discovery)
        #expect(steps(.wake(now: now.adding(milliseconds: 250)), &discovery)
            == [.discovery(.ask(owner: ":1.5")), .wakeAt(nil)])
    }

    /// The schedule forgot the moment when it woke the watch: an early wake
    /// names it again.
    @Test func anEarlyWakeNamesTheSameMomentAgain() {
        var discovery = ServerDiscovery(backoff: Backoff(first: .milliseconds(250), longest: .seconds(10)))
        _ = steps(.ownerChanged(":1.5", now: now), &discovery)
        _ = steps(.capabilities(owner: ":1.5", nil, now: now), &discovery)
        _ = steps(.information(owner: ":1.5", name: "gnome-shell", version: "43.9", now: now), &discovery)
        #expect(steps(.wake(now: now.adding(milliseconds: 100)), &discovery) == [.wakeAt(now.adding(milliseconds: 250))])
    }

    @Test func theServerLeavingWhileAWakeWaitsCancelsIt() {
        var discovery = ServerDiscovery(backoff: Backoff(first: .milliseconds(250), longest: .seconds(10)))
        _ = steps(.ownerChanged(":1.5", now: now), &discovery)
        _ = steps(.capabilities(owner: ":1.5", nil, now: now), &discovery)
        _ = steps(.information(owner: ":1.5", name: "gnome-shell", version: "43.9", now: now), &discovery)
        #expect(steps(.ownerChanged(nil, now: now), &discovery).last == .wakeAt(nil))
    }
}
