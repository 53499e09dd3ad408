import AgentWorkflows
import DFLTestSupport
import SleepTimerCore
import Testing

@Suite struct TimerLimitRuleTests {
    typealias F = WorkflowFixtures
    let limits = TimerLimitRule(perFamily: 2, total: 3)
    let otherFamily = TimerScope(apiOrigin: Fixtures.apiOrigin, userID: Fixtures.user, familySubjectID: Fixtures.otherFamily)

    func timer(_ n: Int, scope: TimerScope = F.scope) -> StoredTimer {
        let base = F.timer(n).timer
        return StoredTimer(timer: MirroredTimer(
            id: base.id, scope: scope, babyID: base.babyID, babyName: base.babyName, startedAt: base.startedAt,
            timeZone: base.timeZone, revision: base.revision, token: base.token, tokenExpiresAt: base.tokenExpiresAt),
            completionState: nil)
    }

    @Test func aNewTimerUnderBothLimitsIsTaken() {
        #expect(limits.refusal(of: timer(2).timer, held: [timer(1)]) == nil)
    }

    @Test func aFamilyAtItsLimitTakesNoNewTimer() {
        let refusal = limits.refusal(of: timer(3).timer, held: [timer(1), timer(2)])
        #expect(refusal?.contains("2 timers of this family") == true)
    }

    @Test func anotherFamilyIsNotHeldBackByTheFirst() {
        #expect(limits.refusal(of: timer(3, scope: otherFamily).timer, held: [timer(1), timer(2)]) == nil)
    }

    @Test func theTotalLimitHoldsAcrossFamilies() {
        let refusal = limits.refusal(of: timer(4, scope: otherFamily).timer, held: [timer(1), timer(2), timer(3, scope: otherFamily)])
        #expect(refusal?.contains("3 timers, its limit") == true)
    }

    @Test func aTimerAlreadyHeldMayAlwaysChange() {
        #expect(limits.refusal(of: timer(2).timer, held: [timer(1), timer(2)]) == nil)
    }
}
