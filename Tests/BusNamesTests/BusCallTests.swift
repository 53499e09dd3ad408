import BusNames
import Testing

@Suite struct BusCallTests {
    @Test func theOneTimeoutIsLibdbusOwnDefaultInMilliseconds() {
        #expect(BusCall.timeout == .seconds(25))
        #expect(BusCall.timeoutMilliseconds == 25_000)
    }
}
