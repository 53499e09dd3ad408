import AgentWorkflows
import SleepTimerCore
import Testing

@Suite struct ScheduleTests {
    let t0 = Instant(millisecondsSince1970: 1_000_000)

    @Test func theFirstDeadlineArmsTheTimer() {
        var schedule = Schedule<AgentWake>()
        #expect(schedule.update(.tokenExpiry, to: t0) == .at(t0))
        #expect(schedule.armedAt == t0)
    }
}
