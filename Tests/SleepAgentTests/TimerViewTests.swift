import DFLDBus
import SleepTimerCore
import SleepTimerStore
import SleepTimersAPI
import Testing
@testable import SleepAgent

@Suite struct TimerViewTests {
    let now = Instant(millisecondsSince1970: 1_795_988_460_000)

    private func stored(state: CompletionState?, token: Bool = true, expiresIn: Int64 = 3_600_000) -> StoredTimer {
        let timer = MirroredTimer(
            id: TimerID("3f2504e0-4f89-41d3-9a0c-0305e82c3301")!,
            scope: TimerScope(apiOrigin: try! APIOrigin(parsing: "https://api.dreamsforlittles.example"),
                              userID: UserID("9b2f5c8e-1d4a-4e6b-8c3f-2a7d9e0b1c4f")!,
                              familySubjectID: FamilySubjectID("c56a4180-65aa-42ec-a945-5fd21dec0538")!),
            babyID: BabyID("7d444840-9dc0-11d1-b245-5ffdce74fad2")!, babyName: try! BabyName(validating: "Maya"),
            startedAt: now.adding(milliseconds: -60_000), timeZone: TimeZoneName("Europe/Berlin")!, revision: 2,
            token: token ? ActionToken(unvalidated: "dflnat_CANARY_q8Zr2mXv0Lw9sT4kP1nB7cY3uH6eJ5dA") : nil,
            tokenExpiresAt: now.adding(milliseconds: expiresIn))
        return StoredTimer(timer: timer, completionState: state)
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
