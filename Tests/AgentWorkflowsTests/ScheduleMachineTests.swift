@testable import AgentWorkflows
import SleepTimerCore
import Testing

@Suite struct ScheduleMachineTests {
    let t0 = WorkflowFixtures.now

    @Test func theFirstDeadlineArmsTheTimer() {
        var schedule = ScheduleMachine<AgentWake>()
        #expect(schedule.deadlineChanged(.tokenExpiry, to: t0) == .arm(t0))
        #expect(schedule.state.armedAt == t0)
    }

    @Test func aLaterDeadlineLeavesTheTimerAsItIs() {
        var schedule = ScheduleMachine<AgentWake>()
        _ = schedule.deadlineChanged(.tokenExpiry, to: t0)
        #expect(schedule.deadlineChanged(.completions, to: t0.plus(seconds: 5)) == nil)
        #expect(schedule.state.next == t0)
    }

    @Test func anEarlierDeadlineArmsTheTimerSooner() {
        var schedule = ScheduleMachine<AgentWake>()
        _ = schedule.deadlineChanged(.tokenExpiry, to: t0)
        #expect(schedule.deadlineChanged(.notifications, to: t0.plus(seconds: -5)) == .arm(t0.plus(seconds: -5)))
    }

    @Test func clearingTheOnlyDeadlineDisarms() {
        var schedule = ScheduleMachine<AgentWake>()
        _ = schedule.deadlineChanged(.tokenExpiry, to: t0)
        #expect(schedule.deadlineChanged(.tokenExpiry, to: nil) == .disarm)
        #expect(schedule.state.armedAt == nil)
    }

    @Test func clearingALaterDeadlineChangesNothing() {
        var schedule = ScheduleMachine<AgentWake>()
        _ = schedule.deadlineChanged(.tokenExpiry, to: t0)
        _ = schedule.deadlineChanged(.completions, to: t0.plus(seconds: 9))
        #expect(schedule.deadlineChanged(.completions, to: nil) == nil)
    }

    /// Clearing a deadline that was never set, with nothing armed, leaves
    /// the alarm alone: nothing to disarm.
    @Test func clearingWithNothingArmedChangesNothing() {
        var schedule = ScheduleMachine<AgentWake>()
        #expect(schedule.deadlineChanged(.panel, to: nil) == nil)
        #expect(schedule.state == ScheduleMachine<AgentWake>.State())
    }

    /// The earliest deadline moving later arms the alarm later.
    @Test func theEarliestDeadlineMovingLaterArmsTheTimerLater() {
        var schedule = ScheduleMachine<AgentWake>()
        _ = schedule.deadlineChanged(.tokenExpiry, to: t0)
        _ = schedule.deadlineChanged(.completions, to: t0.plus(seconds: 20))
        #expect(schedule.deadlineChanged(.tokenExpiry, to: t0.plus(seconds: 10)) == .arm(t0.plus(seconds: 10)))
        #expect(schedule.state.deadlines == [.tokenExpiry: t0.plus(seconds: 10), .completions: t0.plus(seconds: 20)])
    }

    @Test func firingGivesTheDueReasonsEarliestFirstAndArmsForTheRest() {
        var schedule = ScheduleMachine<AgentWake>()
        _ = schedule.deadlineChanged(.tokenExpiry, to: t0)
        _ = schedule.deadlineChanged(.notifications, to: t0.plus(seconds: -1))
        _ = schedule.deadlineChanged(.completions, to: t0.plus(seconds: 30))
        #expect(schedule.alarmFired(at: t0) == [.arm(t0.plus(seconds: 30)), .due(.notifications), .due(.tokenExpiry)])
        #expect(schedule.state.deadlines[.tokenExpiry] == nil)
        #expect(schedule.state.armedAt == t0.plus(seconds: 30))
    }

    @Test func anEarlyWakeFindsNothingDueAndArmsAgainForTheSameMoment() {
        var schedule = ScheduleMachine<AgentWake>()
        _ = schedule.deadlineChanged(.notifications, to: t0)
        #expect(schedule.alarmFired(at: t0.adding(milliseconds: -2)) == [.arm(t0)])
    }

    @Test func firingTheLastDeadlineLeavesTheSpentTimerAlone() {
        var schedule = ScheduleMachine<AgentWake>()
        _ = schedule.deadlineChanged(.completions, to: t0)
        #expect(schedule.alarmFired(at: t0) == [.due(.completions)])
        #expect(schedule.state.armedAt == nil)
    }

    /// After a firing the spent alarm is armed again by the next deadline
    /// set, even for the moment it had been armed for.
    @Test func aDeadlineSetAfterTheFiringArmsTheSpentTimer() {
        var schedule = ScheduleMachine<AgentWake>()
        _ = schedule.deadlineChanged(.completions, to: t0)
        _ = schedule.alarmFired(at: t0)
        #expect(schedule.deadlineChanged(.completions, to: t0) == .arm(t0))
    }

    @Test func aTimerLostToASetClockIsArmedAgainForWhatWaits() {
        var schedule = ScheduleMachine<AgentWake>()
        _ = schedule.deadlineChanged(.tokenExpiry, to: t0)
        #expect(schedule.deadlineChanged(.tokenExpiry, to: t0) == nil)
        #expect(schedule.alarmLost() == .arm(t0))
        #expect(schedule.state.armedAt == t0)
    }

    @Test func aTimerLostWithNothingWaitingStaysDisarmed() {
        var schedule = ScheduleMachine<AgentWake>()
        #expect(schedule.alarmLost() == nil)
        _ = schedule.deadlineChanged(.panel, to: t0)
        _ = schedule.deadlineChanged(.panel, to: nil)
        #expect(schedule.alarmLost() == nil)
        #expect(schedule.state.armedAt == nil)
    }
}
