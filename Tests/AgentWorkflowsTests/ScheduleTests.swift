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

    @Test func aTimerLostToASetClockIsArmedAgainForWhatWaits() {
        var schedule = Schedule<AgentWake>()
        _ = schedule.update(.tokenExpiry, to: t0)
        #expect(schedule.update(.tokenExpiry, to: t0) == nil)
        #expect(schedule.timerLost() == .at(t0))
    }
}
