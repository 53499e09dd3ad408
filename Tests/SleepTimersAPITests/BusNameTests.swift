import SleepTimersAPI
import Testing

/// The agent's one name, which every client calls.
@Suite struct BusNameTests {
    @Test func theAgentsNameIsUnderTheAppsID() {
        // A Flatpak may own and D-Bus activate names under its app id only,
        // and Flathub grants no other: the .deb's agent uses the same one.
        #expect(SleepTimers1.busName == "com.dreamsforlittles.DreamsForLittles.SleepTimers1")
        #expect(SleepTimers1.busName.hasPrefix(AppIdentity.appID + "."))
    }

    @Test func theInterfaceKeepsItsOwnName() {
        #expect(SleepTimers1.interface == "com.dreamsforlittles.SleepTimers1")
    }
}
