import DFLDBus
import DFLTestSupport
import SleepTimerCore
import SleepTimerStore
import SleepTimersAPI
import Testing
@testable import SleepAgent

@Suite struct TimerViewTests {
    let now = Fixtures.now

    private func stored(state: CompletionState?, token: Bool = true, expiresIn: Int64 = 3_600_000) -> StoredTimer {
        StoredTimer(timer: Fixtures.timer(1, token: token ? Fixtures.canary : nil, expiresIn: expiresIn), completionState: state)
    }

    @Test func theDictionaryHasTheDocumentedKeysAndNoToken() {
        let view = TimerView(stored: stored(state: nil), now: now, deepLinkBase: .default, notification: .shown)
        let entries = view.dictionary.vardictEntries!
        #expect(entries.map(\.key) == ["timer_id", "api_origin", "family_subject_id", "baby_id", "baby_name", "started_at_ms",
                                       "timezone", "state", "can_complete", "deep_link", "notification"])
        #expect(!"\(view.dictionary)".contains("CANARY"))
        #expect(entries.first { $0.key == "state" }?.value == .string("running"))
        #expect(entries.first { $0.key == "notification" }?.value == .string("shown"))
    }

    @Test func everyValueHasTheContractsType() {
        let view = TimerView(stored: stored(state: nil), now: now, deepLinkBase: .default, notification: .shown)
        let types = view.dictionary.vardictEntries!.map { "\($0.key):\($0.value.unwrapped.signature)" }
        #expect(types == SleepTimers1.TimerKey.allCases.map { "\($0.name):\($0.signature)" })
    }

    @Test func canCompleteOnlyWhileRunningWithAValidToken() {
        #expect(TimerView(stored: stored(state: nil), now: now, deepLinkBase: .default, notification: .shown).canComplete)
        #expect(!TimerView(stored: stored(state: .pending), now: now, deepLinkBase: .default, notification: .shown).canComplete)
        #expect(!TimerView(stored: stored(state: .needsApp, token: false), now: now, deepLinkBase: .default, notification: .shown).canComplete)
        #expect(!TimerView(stored: stored(state: nil, expiresIn: 0), now: now, deepLinkBase: .default, notification: .shown).canComplete)
    }

    @Test func stateNamesAreTheDocumentedOnes() {
        let states = [nil, CompletionState.pending, .failed, .needsApp].map { stored(state: $0).state.rawValue }
        #expect(states == ["running", "saving", "save-failed", "needs-app"])
    }
}
