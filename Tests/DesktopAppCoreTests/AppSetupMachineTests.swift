@testable import DesktopAppCore
import SleepTimerCore
import Testing

/// The app's configuration as read at startup, and when WebDriver may
/// drive the window.
@Suite struct AppSetupMachineTests {
    static let origin = try! APIOrigin(parsing: "https://app.example")
    static let product = AppSetup.configured(ProductOrigins.webApp, certificateAuthorities: nil)

    @Test func beforeTheConfigurationIsReadNothingIsSet() {
        let setup = AppSetupMachine()
        #expect(setup.state.setup == nil)
        #expect(setup.state.automation == false)
        #expect(setup.state.windowMade == false)
    }

    @Test func aWebOriginShowsTheWebAppWithItsAuthorities() {
        var setup = AppSetupMachine()
        var configuration = Configuration()
        configuration.webOrigin = Self.origin
        configuration.certificateAuthorities = "/etc/ssl/private-ca.pem"
        #expect(setup.configurationRead(configuration) == Self.origin)
        #expect(setup.state.setup == .configured(Self.origin, certificateAuthorities: "/etc/ssl/private-ca.pem"))
    }

    @Test func noWebOriginShowsTheProductsWebApp() throws {
        var setup = AppSetupMachine()
        let product = try APIOrigin(parsing: "https://app.dreamsforlittles.com")
        #expect(setup.configurationRead(Configuration()) == product)
        #expect(setup.state.setup == .configured(product, certificateAuthorities: nil))
    }

    @Test func aConfigurationMistakeIsNamed() {
        var setup = AppSetupMachine()
        #expect(setup.configurationFailed("app.conf, line 2: web-origin is no origin") == "app.conf, line 2: web-origin is no origin")
        #expect(setup.state.setup == .invalid("app.conf, line 2: web-origin is no origin"))
    }

    @Test func theWindowIsMadeWithTheSetupRead() {
        var setup = AppSetupMachine()
        _ = setup.configurationFailed("bad")
        #expect(setup.windowWanted() == .init(setup: .invalid("bad"), automation: false))
        #expect(setup.state.windowMade == true)
    }

    @Test func aWindowWantedBeforeTheConfigurationShowsTheProductsWebApp() {
        var setup = AppSetupMachine()
        #expect(setup.windowWanted() == .init(setup: Self.product, automation: false))
    }

    @Test func theStartingInstancesOwnCommandLineTurnsAutomationOn() {
        var setup = AppSetupMachine()
        #expect(setup.automationAsked(remote: false) == .allow)
        #expect(setup.state.automation == true)
        #expect(setup.windowWanted() == .init(setup: Self.product, automation: true))
    }

    @Test func aForwardedCommandLineCannotTurnAutomationOn() {
        var setup = AppSetupMachine()
        #expect(setup.automationAsked(remote: true) == .ignore)
        #expect(setup.state.automation == false)
        #expect(setup.windowWanted() == .init(setup: Self.product, automation: false))
    }

    @Test func automationAskedAfterTheWindowExistsIsIgnored() {
        var setup = AppSetupMachine()
        _ = setup.windowWanted()
        #expect(setup.automationAsked(remote: false) == .ignore)
        #expect(setup.state.automation == false)
    }
}
