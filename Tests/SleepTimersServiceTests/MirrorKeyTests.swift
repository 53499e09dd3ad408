import SleepTimerCore
import SleepTimersAPI
import Testing
@testable import SleepTimersService

/// The core names a refused field in its own terms; the bus object maps it
/// to the contract's key, which must be the name the refusal's text uses.
@Suite struct MirrorKeyTests {
    @Test func everyFieldIsTheKeyOfTheSameName() {
        for field in MirrorRequest.Field.allCases {
            #expect(SleepTimers1.MirrorKey(field).name == field.name)
        }
    }

    @Test func noTwoFieldsShareAKey() {
        let keys = Set(MirrorRequest.Field.allCases.map { SleepTimers1.MirrorKey($0) })
        #expect(keys.count == MirrorRequest.Field.allCases.count)
    }
}
