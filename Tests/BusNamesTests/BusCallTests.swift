import BusNames
import Testing

@Suite struct BusCallTests {
    @Test func theOneTimeoutIsLibdbusOwnDefaultInMilliseconds() {
        #expect(BusCall.timeout == .seconds(25))
        #expect(BusCall.timeoutMilliseconds == 25_000)
    }

    @Test func theShorterTimeoutsAreTheMillisecondsTheirCallsWereGiven() {
        #expect(BusCall.milliseconds(BusCall.quick) == 2000)
        #expect(BusCall.milliseconds(BusCall.agentQuestion) == 5000)
        #expect(BusCall.milliseconds(BusCall.waitedOn) == 10_000)
    }

    @Test func aDurationIsWholeMillisecondsClampedToInt32() {
        #expect(BusCall.milliseconds(.milliseconds(1500)) == 1500)
        #expect(BusCall.milliseconds(.microseconds(2999)) == 2)
        #expect(BusCall.milliseconds(.zero) == 0)
        #expect(BusCall.milliseconds(.seconds(3_000_000)) == Int32.max)
        #expect(BusCall.milliseconds(.seconds(Int64.max)) == Int32.max)
    }
}
