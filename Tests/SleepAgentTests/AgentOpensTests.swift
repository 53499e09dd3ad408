import Testing
import AgentWorkflows
import DFLTestSupport
import GLibParsing
import SleepTimerCore
import SleepTimerStore
import SleepAgent

/// Opens are limited per caller and refusals logged within a budget, by
/// the agent's shell with the clock moved by hand.
@Suite struct AgentOpensTests {
    let directory = TemporaryDirectory()
    let clock = ManualClock()
    let alarm = ManualAlarm()
    let opener = RecordingOpener()
    let log = RecordingLog()

    func agent() throws -> Agent {
        var configuration = Configuration()
        configuration.allowedOrigins = AllowedOrigins([Fixtures.apiOrigin])
        let store = try SleepTimerStore(location: StoreLocation(directory: directory.stateDirectory), log: log, clock: clock)
        let agent = Agent(
            store: store, configuration: configuration, timeZones: GLibTimeZones(path: "/usr/share/zoneinfo"), base64: GLibBase64(),
            timeFormat: .twentyFourHour, clock: clock, log: log, alarm: alarm, opener: opener)
        agent.start(surface: nil, transport: nil)
        return agent
    }

    @Test func aThousandOpensFromOneCallerWithinASecondOpenTheBurstAndLogOneLine() throws {
        let agent = try agent()
        try agent.mirror(Fixtures.request())
        for _ in 0..<1_000 { try agent.open(Fixtures.timerID, caller: ":1.9") }
        #expect(opener.opened.count == CallerRateLimitMachine.Settings.opens.bucket.burst)
        #expect(log.all.filter { $0.contains("Refused Open from :1.9") }.count == 1)
    }

    @Test func anotherCallerAndALaterSecondAreNotHeldBackByTheFlood() throws {
        let agent = try agent()
        try agent.mirror(Fixtures.request())
        for _ in 0..<100 { agent.openApp(activationToken: nil, caller: ":1.9") }
        agent.openApp(activationToken: "t", caller: Agent.notificationCaller)
        #expect(opener.opened.count == CallerRateLimitMachine.Settings.opens.bucket.burst + 1)
        #expect(opener.opened.last?.1 == "t")
        clock.advance(milliseconds: 1_000)
        agent.openApp(activationToken: nil, caller: ":1.9")
        #expect(opener.opened.count == CallerRateLimitMachine.Settings.opens.bucket.burst + 2)
    }

    @Test func manyCallersTogetherOpenNoMoreThanTheBoundOfAllCallers() throws {
        let agent = try agent()
        try agent.mirror(Fixtures.request())
        for number in 0..<300 { try agent.open(Fixtures.timerID, caller: "process \(number)") }
        let all = try #require(CallerRateLimitMachine.Settings.opens.allCallers)
        #expect(opener.opened.count == all.burst)
        #expect(log.all.filter { $0.contains("Refused Open from") }.count <= LogBudgetMachine<Instant>.Settings.refusals.linesInAll!.burst)
        clock.advance(milliseconds: all.refill.wholeMilliseconds)
        try agent.open(Fixtures.timerID, caller: "process 1000")
        #expect(opener.opened.count == all.burst + 1)
    }

    @Test func refusalsAreOneLineAMinuteWithTheirCount() throws {
        let agent = try agent()
        for _ in 0..<10_000 { agent.noteRefusal(of: "Complete", by: ":1.9", "timer_id is not a valid id.") }
        #expect(log.all.filter { $0.contains("Refused") }.count == 1)
        clock.advance(milliseconds: 60_000)
        agent.noteRefusal(of: "Complete", by: ":1.9", "timer_id is not a valid id.")
        let lines = log.all.filter { $0.contains("Refused") }
        #expect(lines.count == 2)
        #expect(lines.last?.contains("(10000 refusals of this caller since its last line") == true)
    }
}
