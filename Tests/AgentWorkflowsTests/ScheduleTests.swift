import AgentWorkflows
import SleepTimerCore
import Testing

@Suite struct ScheduleTests {
    let t0 = WorkflowFixtures.now

    @Test func theFirstDeadlineArmsTheTimer() {
        var schedule = Schedule<AgentWake>()
        #expect(schedule.update(.tokenExpiry, to: t0) == .at(t0))
        #expect(schedule.armedAt == t0)
    }

    @Test func aLaterDeadlineLeavesTheTimerAsItIs() {
        var schedule = Schedule<AgentWake>()
        _ = schedule.update(.tokenExpiry, to: t0)
        #expect(schedule.update(.completions, to: t0.plus(seconds: 5)) == nil)
        #expect(schedule.next == t0)
    }

    @Test func anEarlierDeadlineArmsTheTimerSooner() {
        var schedule = Schedule<AgentWake>()
        _ = schedule.update(.tokenExpiry, to: t0)
        #expect(schedule.update(.notifications, to: t0.plus(seconds: -5)) == .at(t0.plus(seconds: -5)))
    }

    @Test func clearingTheOnlyDeadlineDisarms() {
        var schedule = Schedule<AgentWake>()
        _ = schedule.update(.tokenExpiry, to: t0)
        #expect(schedule.update(.tokenExpiry, to: nil) == .disarm)
        #expect(schedule.armedAt == nil)
    }

    @Test func clearingALaterDeadlineChangesNothing() {
        var schedule = Schedule<AgentWake>()
        _ = schedule.update(.tokenExpiry, to: t0)
        _ = schedule.update(.completions, to: t0.plus(seconds: 9))
        #expect(schedule.update(.completions, to: nil) == nil)
    }

    @Test func firingGivesTheDueReasonsEarliestFirstAndArmsForTheRest() {
        var schedule = Schedule<AgentWake>()
        _ = schedule.update(.tokenExpiry, to: t0)
        _ = schedule.update(.notifications, to: t0.plus(seconds: -1))
        _ = schedule.update(.completions, to: t0.plus(seconds: 30))
        let (due, arm) = schedule.fire(at: t0)
        #expect(due == [.notifications, .tokenExpiry])
        #expect(arm == .at(t0.plus(seconds: 30)))
        #expect(schedule.deadline(of: .tokenExpiry) == nil)
    }

    @Test func anEarlyWakeFindsNothingDueAndArmsAgainForTheSameMoment() {
        var schedule = Schedule<AgentWake>()
        _ = schedule.update(.notifications, to: t0)
        let (due, arm) = schedule.fire(at: t0.adding(milliseconds: -2))
        #expect(due.isEmpty)
        #expect(arm == .at(t0))
    }

    @Test func firingTheLastDeadlineLeavesTheSpentTimerAlone() {
        var schedule = Schedule<AgentWake>()
        _ = schedule.update(.completions, to: t0)
        let (due, arm) = schedule.fire(at: t0)
        #expect(due == [.completions])
        #expect(arm == nil)
        #expect(schedule.armedAt == nil)
    }
}

@Suite struct TimerLifecycleTests {
    typealias F = WorkflowFixtures

    @Test func aTokenThatExpiredDropsItsTimer() {
        let decision = TimerLifecycle.decide([F.timer(2, expiresAt: F.now), F.timer(1, expiresAt: F.now.plus(seconds: -1))], now: F.now)
        #expect(decision.expired == [F.id(1), F.id(2)])
        #expect(decision.wakeAt == nil)
    }

    @Test func aPendingCompletionKeepsItsTimerPastExpiry() {
        let decision = TimerLifecycle.decide([F.timer(1, expiresAt: F.now.plus(seconds: -60), completion: .pending)], now: F.now)
        #expect(decision.expired.isEmpty)
        #expect(decision.wakeAt == nil)
    }

    @Test func aFailedCompletionDoesNotKeepItsTimer() {
        let decision = TimerLifecycle.decide([F.timer(1, expiresAt: F.now, completion: .needsApp)], now: F.now)
        #expect(decision.expired == [F.id(1)])
    }

    @Test func theWakeUpIsTheEarliestExpiryToCome() {
        let decision = TimerLifecycle.decide(
            [F.timer(1, expiresAt: F.now.plus(seconds: 90)), F.timer(2, expiresAt: F.now.plus(seconds: 30))], now: F.now)
        #expect(decision.expired.isEmpty)
        #expect(decision.wakeAt == F.now.plus(seconds: 30))
    }
}
