import AgentWorkflows
import SleepTimerCore
import SleepTimerStore
import Testing
@testable import SleepAgent

@Suite struct ServiceErrorTests {
    @Test func everyRejectionHasItsDBusName() {
        let expected: [MirrorRejection.Code: String] = [
            .invalidArgument: "InvalidArgument", .notSleep: "NotSleep", .notSelfMode: "NotSelfMode",
            .bearerTokenRefused: "BearerTokenRefused", .originNotAllowed: "OriginNotAllowed", .tokenExpired: "TokenExpired",
        ]
        // The codes MirrorRule refuses with (MirrorRejection.Code is the API's ErrorName).
        for code in expected.keys {
            let error = ServiceError(MirrorRejection(code, field: .timerID, "Because."))
            #expect(error.name == "com.dreamsforlittles.SleepTimers1.Error." + expected[code]!)
            #expect(error.message == "Because.")
        }
    }

    @Test func storeErrorsMapToUnknownTimerCannotCompleteOrStorage() {
        #expect(ServiceError(StoreError(.unknownTimer, "x")).code == .unknownTimer)
        #expect(ServiceError(StoreError(.cannotComplete, "x")).code == .cannotComplete)
        #expect(ServiceError(StoreError(.fileSystem(errno: 28), "disk full")).code == .storageFailed)
    }

    @Test func aRefusedClickIsAnUnknownTimerOrAnInvalidArgumentNamingTheTime() {
        #expect(ServiceError(CompletionRefusal.unknownTimer).code == .unknownTimer)
        for refusal in [CompletionRefusal.invalidTime, .inFuture, .beforeStart] {
            let error = ServiceError(refusal)
            #expect(error.code == .invalidArgument)
            #expect(error.message.hasPrefix("completed_at_ms "))
        }
    }
}
