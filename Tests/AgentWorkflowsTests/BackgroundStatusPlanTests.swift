import AgentWorkflows
import DFLTestSupport
import SleepTimerCore
import Testing

@Suite struct BackgroundStatusPlanTests {
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

    func update(_ plan: inout BackgroundStatusPlan, _ timers: [StoredTimer], format: TimeFormat = .twelveHour) -> String? {
        plan.update(timers, timeZones: zones, timeFormat: format)
    }

    @Test func itSpeaksOnlyInsideAFlatpak() {
        #expect(BackgroundStatusPlan.applies(at: .flatpak(appID: "com.dreamsforlittles.App")))
        #expect(!BackgroundStatusPlan.applies(at: .host))
    }

    @Test func noBabyAtTheStartSendsNothing() {
        var plan = BackgroundStatusPlan()
        #expect(update(&plan, []) == nil)
    }

    @Test func aTimerStartingSetsTheLine() {
        var plan = BackgroundStatusPlan()
        #expect(update(&plan, [timer(1, "Maya", startedAt: nine40)]) == "Maya asleep since 9:40 PM")
    }

    @Test func aChangeThatLeavesTheLineAsItWasSendsNothing() {
        var plan = BackgroundStatusPlan()
        _ = update(&plan, [timer(1, "Maya", startedAt: nine40)])
        // A renewed token is a new revision: the line stands.
        #expect(update(&plan, [timer(1, "Maya", startedAt: nine40, revision: 2)]) == nil)
    }

    @Test func aSecondBabyChangesTheLineTheEarliestAsleepFirst() {
        var plan = BackgroundStatusPlan()
        _ = update(&plan, [timer(2, "Leo", startedAt: nine40.adding(milliseconds: 25 * 60_000))])
        let both = [timer(2, "Leo", startedAt: nine40.adding(milliseconds: 25 * 60_000)), timer(1, "Maya", startedAt: nine40)]
        #expect(update(&plan, both) == "Maya asleep since 9:40 PM · Leo since 10:05 PM")
    }

    @Test func aNewNameChangesTheLine() {
        var plan = BackgroundStatusPlan()
        _ = update(&plan, [timer(1, "Maya", startedAt: nine40)])
        #expect(update(&plan, [timer(1, "Maya Rose", startedAt: nine40)]) == "Maya Rose asleep since 9:40 PM")
    }

    @Test func aCompletedSleepLeavesTheLineAndTheLastClearsItOnce() {
        var plan = BackgroundStatusPlan()
        _ = update(&plan, [timer(1, "Maya", startedAt: nine40), timer(2, "Leo", startedAt: nine40)])
        let saving = timer(1, "Maya", startedAt: nine40, completion: .pending)
        #expect(update(&plan, [saving, timer(2, "Leo", startedAt: nine40)]) == "Leo asleep since 9:40 PM")
        #expect(update(&plan, [saving]) == "")
        #expect(update(&plan, []) == nil)
    }

    @Test func theClocksFormatChangesTheLine() {
        var plan = BackgroundStatusPlan()
        _ = update(&plan, [timer(1, "Maya", startedAt: nine40)])
        #expect(update(&plan, [timer(1, "Maya", startedAt: nine40)], format: .twentyFourHour) == "Maya asleep since 21:40")
    }

    @Test func anExpiredTokenDoesNotWakeTheBaby() {
        let stored = timer(1, "Maya", startedAt: nine40)
        let late = nine40.adding(milliseconds: 3_600_001)
        #expect(stored.state(at: late) == .tokenExpired)
        #expect(BackgroundStatusPlan.sleepers([stored], timeZones: zones, timeFormat: .twelveHour).map(\.name) == ["Maya"])
    }
}
