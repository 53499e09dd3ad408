import PanelIndicator
import SleepTimerCore
import Testing

@Suite struct PanelRegistrationRuleTests {
    @Test func onTheHostTheItemOwnsTheSpecificationsNameWithItsProcessID() throws {
        #expect(try PanelRegistrationRule.registration(place: .host, processID: 4242, override: nil)
            == .wellKnownName("org.kde.StatusNotifierItem-4242-1"))
    }

    @Test func insideAFlatpakItRegistersByObjectPath() throws {
        #expect(try PanelRegistrationRule.registration(place: .flatpak(appID: "com.dreamsforlittles.DreamsForLittles"), processID: 2, override: nil)
            == .objectPath)
        #expect(try PanelRegistrationRule.registration(place: .flatpak(appID: nil), processID: 2, override: "") == .objectPath)
    }

    @Test func theEnvironmentForcesEitherWay() throws {
        #expect(try PanelRegistrationRule.registration(place: .host, processID: 7, override: "path") == .objectPath)
        #expect(try PanelRegistrationRule.registration(place: .flatpak(appID: nil), processID: 2, override: "name")
            == .wellKnownName("org.kde.StatusNotifierItem-2-1"))
    }

    @Test func anOverrideThatNamesNoWayIsRefused() {
        #expect(throws: PanelRegistrationRule.UnknownRegistration(value: "bus")) {
            try PanelRegistrationRule.registration(place: .host, processID: 7, override: "bus")
        }
        #expect(PanelRegistrationRule.UnknownRegistration(value: "bus").description
            == "DFL_PANEL_REGISTRATION=bus names no panel registration; use name or path.")
    }
}
