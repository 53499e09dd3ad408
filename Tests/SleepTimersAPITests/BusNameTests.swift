import SleepTimersAPI
import Testing

/// Which of the agent's two names a client calls it at.
@Suite struct BusNameTests {
    @Test func onTheHostAClientCallsThePublicName() {
        #expect(SleepTimers1.callableBusName(sandboxed: false) == "com.dreamsforlittles.SleepTimers1")
    }

    @Test func inTheSandboxAClientCallsTheNameUnderTheAppID() {
        // The only one of the two a Flatpak can make D-Bus activatable.
        #expect(SleepTimers1.callableBusName(sandboxed: true) == "com.dreamsforlittles.App.SleepTimers1")
        #expect(SleepTimers1.appScopedBusName.hasPrefix("com.dreamsforlittles.App."))
    }
}
