import DesktopAppCore
import SleepTimerCore
import Testing

@Suite struct SignOutTests {
    /// One line, a notification of session.clear: no id, so the bridge
    /// sends no answer for the page to receive.
    @Test func theBridgeIsToldToClearTheSessionWithoutAnAnswer() throws {
        let line = SignOut.bridgeLine
        #expect(line.last == UInt8(ascii: "\n"))
        #expect(line.filter { $0 == UInt8(ascii: "\n") }.count == 1)
        let message = try JSONParser.parse(Array(line.dropLast()))
        #expect(message["jsonrpc"] == .string("2.0"))
        #expect(message["method"] == .string("session.clear"))
        #expect(message["id"] == nil)
    }
}
