import SleepTimerCore
import Testing

@Suite struct StatusTextTests {
    @Test func completionsAreNamedOnlyWhileSomeWait() {
        #expect(StatusText.summary(timers: 2, waitingCompletions: 0) == "2 timers mirrored")
        #expect(StatusText.summary(timers: 1, waitingCompletions: 1) == "1 timer mirrored, 1 completion waiting")
        #expect(StatusText.summary(timers: 0, waitingCompletions: 3) == "0 timers mirrored, 3 completions waiting")
    }
}
