@testable import AgentWorkflows
import DFLTestSupport
import SleepTimerCore
import Testing

@Suite struct BackgroundStatusMachineTests {
    struct UTC: TimeZoneResolving {
        func rules(for name: TimeZoneName) -> TimeZoneRules? { TimeZoneRules(fixedOffsetSeconds: 0) }
    }

    let zones = UTC()
    // 21:40 UTC.
    let nine40 = Instant(millisecondsSince1970: 1_795_988_400_000)

    func timer(_ n: Int, _ name: String, startedAt: Instant, revision: Int64 = 1, completion: CompletionState? = nil) -> StoredTimer {
        WorkflowFixtures.timer(n, name: name, startedAt: startedAt, revision: revision, expiresAt: nine40.adding(milliseconds: 3_600_000),
                               completion: completion)
    }

    func update(
        _ status: inout BackgroundStatusMachine, _ timers: [StoredTimer], format: TimeFormat = .twelveHour
    ) -> BackgroundStatusMachine.TimersChangedAction? {
        status.timersChanged(timers, timeZones: zones, timeFormat: format)
    }

    @Test func itSpeaksOnlyInsideAFlatpak() {
        #expect(BackgroundStatusMachine.applies(at: .flatpak(appID: "com.dreamsforlittles.DreamsForLittles")))
        #expect(!BackgroundStatusMachine.applies(at: .host))
    }

    @Test func noBabyAtTheStartSendsNothing() {
        var status = BackgroundStatusMachine()
        #expect(update(&status, []) == nil)
    }

    @Test func aTimerStartingSetsTheLine() {
        var status = BackgroundStatusMachine()
        #expect(update(&status, [timer(1, "Maya", startedAt: nine40)]) == .send("Maya asleep since 9:40 PM"))
    }

    @Test func aChangeThatLeavesTheLineAsItWasSendsNothing() {
        var status = BackgroundStatusMachine()
        _ = update(&status, [timer(1, "Maya", startedAt: nine40)])
        // A renewed token is a new revision: the line stands.
        #expect(update(&status, [timer(1, "Maya", startedAt: nine40, revision: 2)]) == nil)
    }

    @Test func aSecondBabyChangesTheLineTheEarliestAsleepFirst() {
        var status = BackgroundStatusMachine()
        _ = update(&status, [timer(2, "Leo", startedAt: nine40.adding(milliseconds: 25 * 60_000))])
        let both = [timer(2, "Leo", startedAt: nine40.adding(milliseconds: 25 * 60_000)), timer(1, "Maya", startedAt: nine40)]
        #expect(update(&status, both) == .send("Maya asleep since 9:40 PM · Leo since 10:05 PM"))
    }

    @Test func aNewNameChangesTheLine() {
        var status = BackgroundStatusMachine()
        _ = update(&status, [timer(1, "Maya", startedAt: nine40)])
        #expect(update(&status, [timer(1, "Maya Rose", startedAt: nine40)]) == .send("Maya Rose asleep since 9:40 PM"))
    }

    @Test func aCompletedSleepLeavesTheLineAndTheLastClearsItOnce() {
        var status = BackgroundStatusMachine()
        _ = update(&status, [timer(1, "Maya", startedAt: nine40), timer(2, "Leo", startedAt: nine40)])
        let saving = timer(1, "Maya", startedAt: nine40, completion: .pending)
        #expect(update(&status, [saving, timer(2, "Leo", startedAt: nine40)]) == .send("Leo asleep since 9:40 PM"))
        #expect(update(&status, [saving]) == .send(""))
        #expect(update(&status, []) == nil)
    }

    /// The machine remembers the line sent last, and that an empty one was
    /// sent: the portal is told of a clearing once.
    @Test func theStateIsTheLineSentLast() {
        var status = BackgroundStatusMachine()
        #expect(status.state == .nothingSent)
        _ = update(&status, [])
        #expect(status.state == .nothingSent)
        _ = update(&status, [timer(1, "Maya", startedAt: nine40)])
        #expect(status.state == .sent("Maya asleep since 9:40 PM"))
        _ = update(&status, [])
        #expect(status.state == .sent(""))
        #expect(update(&status, [timer(1, "Maya", startedAt: nine40)]) == .send("Maya asleep since 9:40 PM"))
    }

    @Test func theClocksFormatChangesTheLine() {
        var status = BackgroundStatusMachine()
        _ = update(&status, [timer(1, "Maya", startedAt: nine40)])
        #expect(update(&status, [timer(1, "Maya", startedAt: nine40)], format: .twentyFourHour) == .send("Maya asleep since 21:40"))
    }

    @Test func anExpiredTokenDoesNotWakeTheBaby() {
        let stored = timer(1, "Maya", startedAt: nine40)
        let late = nine40.adding(milliseconds: 3_600_001)
        #expect(stored.state(at: late) == .tokenExpired)
        #expect(BackgroundStatusMachine.sleepers([stored], timeZones: zones, timeFormat: .twelveHour).map(\.name) == ["Maya"])
    }
}
