import Testing
import SleepTimerCore

@Suite struct CallerIdentityMachineTests {
    let settings = CallerIdentityMachine.Settings(maximumKnown: 2, maximumAsking: 2, maximumWaiting: 8)

    @Test func theBusSettingsKeepAFloodOfOneConnectionWaiting() {
        var callers = CallerIdentityMachine(settings: .bus)
        #expect(callers.called(by: ":1.5") == .ask)
        #expect((1..<10_000).map { _ in callers.called(by: ":1.5") }.filter { $0 == .drop }.count == 10_000 - CallerIdentityMachine.Settings.bus.maximumWaiting)
    }

    @Test func theFirstCallOfAConnectionAsksAndTheNextWait() {
        var callers = CallerIdentityMachine(settings: settings)
        #expect(callers.called(by: ":1.5") == .ask)
        #expect(callers.called(by: ":1.5") == .wait)
    }

    @Test func theAnswerNamesTheProcessForEveryCallThatWaitedAndIsKept() {
        var callers = CallerIdentityMachine(settings: settings)
        _ = callers.called(by: ":1.5")
        _ = callers.called(by: ":1.5")
        #expect(callers.answered(for: ":1.5", processID: 42) == .init(caller: "process 42", waiting: 2))
        #expect(callers.called(by: ":1.5") == .identified("process 42"))
        #expect(callers.connectionsKept == 1)
    }

    @Test func twoConnectionsOfOneProcessAreOneCaller() {
        var callers = CallerIdentityMachine(settings: settings)
        _ = callers.called(by: ":1.5")
        _ = callers.called(by: ":1.6")
        #expect(callers.answered(for: ":1.5", processID: 42).caller == callers.answered(for: ":1.6", processID: 42).caller)
    }

    @Test func callsBeyondWhatMayWaitInAllAreDropped() {
        var callers = CallerIdentityMachine(settings: .init(maximumKnown: 2, maximumAsking: 4, maximumWaiting: 3))
        _ = callers.called(by: ":1.5")
        _ = callers.called(by: ":1.5")
        _ = callers.called(by: ":1.6")
        #expect(callers.called(by: ":1.5") == .drop)
        #expect(callers.called(by: ":1.7") == .drop)
        #expect(callers.answered(for: ":1.5", processID: 42).waiting == 2)
        #expect(callers.called(by: ":1.7") == .ask)
        #expect(callers.called(by: ":1.5") == .identified("process 42"))
    }

    @Test func connectionsBeyondThoseAskedAboutAreDropped() {
        var callers = CallerIdentityMachine(settings: settings)
        _ = callers.called(by: ":1.5")
        _ = callers.called(by: ":1.6")
        #expect(callers.called(by: ":1.7") == .drop)
        _ = callers.answered(for: ":1.5", processID: 42)
        #expect(callers.called(by: ":1.7") == .ask)
    }

    @Test func anAnswerThatSaysNothingIsTheUnidentifiedCallerAndIsAskedAgain() {
        var callers = CallerIdentityMachine(settings: settings)
        _ = callers.called(by: ":1.5")
        #expect(callers.answered(for: ":1.5", processID: nil) == .init(caller: CallerIdentityMachine.unidentified, waiting: 1))
        #expect(callers.connectionsKept == 0)
        #expect(callers.called(by: ":1.5") == .ask)
    }

    @Test func aConnectionThatLeftIsForgotten() {
        var callers = CallerIdentityMachine(settings: settings)
        _ = callers.called(by: ":1.5")
        _ = callers.answered(for: ":1.5", processID: 42)
        callers.left(":1.5")
        #expect(callers.connectionsKept == 0)
        #expect(callers.called(by: ":1.5") == .ask)
    }

    @Test func anAnswerAfterTheConnectionLeftServesItsCallsButIsNotKept() {
        var callers = CallerIdentityMachine(settings: settings)
        _ = callers.called(by: ":1.5")
        callers.left(":1.5")
        #expect(callers.answered(for: ":1.5", processID: 42) == .init(caller: "process 42", waiting: 1))
        #expect(callers.connectionsKept == 0)
    }

    @Test func theConnectionsKeptAreBounded() {
        var callers = CallerIdentityMachine(settings: settings)
        for connection in [":1.5", ":1.6"] {
            _ = callers.called(by: connection)
            _ = callers.answered(for: connection, processID: 42)
        }
        _ = callers.called(by: ":1.7")
        #expect(callers.answered(for: ":1.7", processID: 43).caller == "process 43")
        #expect(callers.connectionsKept == 2)
        #expect(callers.called(by: ":1.7") == .ask)
    }

    @Test func anAnswerNobodyAskedForServesNothing() {
        var callers = CallerIdentityMachine(settings: settings)
        #expect(callers.answered(for: ":1.5", processID: 42).waiting == 0)
        #expect(callers.connectionsKept == 0)
    }
}
