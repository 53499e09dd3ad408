import SleepTimerCore
import Testing

@Suite struct MirroredTimerTests {
    /// Each state of a recorded completion shows as its own timer state:
    /// a refused save is no request to open the app.
    @Test func aCompletionsStateShowsOnTheTimer() {
        #expect(CompletionState.pending.timerState == .saving)
        #expect(CompletionState.failed.timerState == .saveFailed)
        #expect(CompletionState.needsApp.timerState == .needsApp)
    }
}
