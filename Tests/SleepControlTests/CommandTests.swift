import Testing
@testable import SleepControl

@Suite struct CommandTests {
    let id = "3f2504e0-4f89-41d3-9a0c-0305e82c3301"

    @Test func parsesEveryCommand() throws {
        #expect(try Command.parse(["list"]) == .list(json: false))
        #expect(try Command.parse(["list", "--json"]) == .list(json: true))
        #expect(try Command.parse(["status", "--json"]) == .status(json: true))
        #expect(try Command.parse(["watch"]) == .watch)
        #expect(try Command.parse(["open", id]) == .open(timerID: id))
        #expect(try Command.parse(["complete", id]) == .complete(timerID: id, at: 0))
        #expect(try Command.parse(["complete", id, "--at", "now"]) == .complete(timerID: id, at: 0))
        #expect(try Command.parse(["complete", "--at", "2026-11-29T21:41:00Z", id])
            == .complete(timerID: id, at: 1_795_988_460_000))
        #expect(try Command.parse(["complete", id, "--at", "2026-11-29T22:41:00.500+01:00"])
            == .complete(timerID: id, at: 1_795_988_460_500))
        #expect(try Command.parse(["complete", id, "--at", "1795988460000"]) == .complete(timerID: id, at: 1_795_988_460_000))
        #expect(try Command.parse(["help"]) == .help(topic: nil))
        #expect(try Command.parse(["--help"]) == .help(topic: nil))
        #expect(try Command.parse(["help", "complete"]) == .help(topic: "complete"))
        #expect(try Command.parse(["list", "--help"]) == .help(topic: "list"))
    }

    /// A keyboard shortcut's command: no timer to name.
    @Test func parsesRunning() throws {
        #expect(try Command.parse(["complete", "--running"]) == .completeRunning)
        #expect(try Command.parse(["open", "--running"]) == .openRunning)
        #expect(try Command.parse(["complete", "--running", "--help"]) == .help(topic: "complete"))
    }

    @Test func helpShowsBothFormsOfCompleteAndOpen() {
        for topic in ["complete", "open"] {
            let help = Command.helpText(topic) ?? ""
            #expect(help.contains("Usage: dfl-sleepctl \(topic) TIMER_ID"))
            #expect(help.contains("Usage: dfl-sleepctl \(topic) --running"))
            #expect(help.contains("With --running"))
        }
        #expect(Command.usage.contains("complete --running"))
        #expect(Command.usage.contains("open --running"))
    }

    @Test(arguments: [
        [], ["bogus"], ["list", "extra"], ["list", "--yaml"], ["complete"], ["complete", "not-a-uuid"],
        ["complete", "3f2504e0-4f89-41d3-9a0c-0305e82c3301", "--at"],
        ["complete", "3f2504e0-4f89-41d3-9a0c-0305e82c3301", "--at", "yesterday"],
        ["complete", "3f2504e0-4f89-41d3-9a0c-0305e82c3301", "--at", "2026-11-29T21:41:00"],
        ["open"], ["open", "--json"],
        ["complete", "--running", "3f2504e0-4f89-41d3-9a0c-0305e82c3301"], ["complete", "--running", "--at", "now"],
        ["open", "--running", "3f2504e0-4f89-41d3-9a0c-0305e82c3301"], ["list", "--running"], ["help", "bogus"], ["watch", "now"], ["bogus", "--help"],
    ])
    func refusesWithAMessage(_ arguments: [String]) {
        #expect(throws: Command.UsageError.self) { try Command.parse(arguments) }
    }

    @Test func everyCommandHasHelp() {
        for topic in ["list", "complete", "open", "watch", "status", "help"] {
            #expect(Command.helpText(topic)?.hasPrefix("Usage: dfl-sleepctl \(topic)") == true)
        }
        #expect(Command.helpText(nil) == Command.usage)
    }
}
