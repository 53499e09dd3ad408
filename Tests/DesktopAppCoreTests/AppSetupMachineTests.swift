import DesktopAppCore
import SleepTimerCore
import Testing

/// The app's configuration as read at startup, and when WebDriver may
/// drive the window.
@Suite struct AppSetupMachineTests {
    static let origin = try! APIOrigin(parsing: "https://app.example")
    static let searchPaths = ["/home/u/.config/dreamsforlittles/app.conf", "/etc/xdg/dreamsforlittles/app.conf"]

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
        #expect(setup.configurationRead(configuration, searchPaths: Self.searchPaths) == .showWebApp(Self.origin))
        #expect(setup.state.setup == .configured(Self.origin, certificateAuthorities: "/etc/ssl/private-ca.pem"))
    }

    @Test func noWebOriginIsExplainedWithTheFilesToSetItIn() {
        var setup = AppSetupMachine()
        #expect(setup.configurationRead(Configuration(), searchPaths: Self.searchPaths) == .explainMissingOrigin)
        #expect(setup.state.setup == .notConfigured(searchPaths: Self.searchPaths))
    }

    @Test func aConfigurationMistakeIsNamed() {
        var setup = AppSetupMachine()
        #expect(setup.configurationFailed("app.conf, line 2: web-origin is no origin") == .explainMistake("app.conf, line 2: web-origin is no origin"))
        #expect(setup.state.setup == .invalid("app.conf, line 2: web-origin is no origin"))
    }

    @Test func theWindowIsMadeWithTheSetupRead() {
        var setup = AppSetupMachine()
        _ = setup.configurationFailed("bad")
        #expect(setup.windowWanted() == .make(.invalid("bad"), automation: false))
        #expect(setup.state.windowMade == true)
    }

    @Test func aWindowWantedBeforeTheConfigurationSaysItIsMissing() {
        var setup = AppSetupMachine()
        #expect(setup.windowWanted() == .make(.notConfigured(searchPaths: []), automation: false))
    }

    @Test func theStartingInstancesOwnCommandLineTurnsAutomationOn() {
        var setup = AppSetupMachine()
        #expect(setup.automationAsked(remote: false) == .allow)
        #expect(setup.state.automation == true)
        #expect(setup.windowWanted() == .make(.notConfigured(searchPaths: []), automation: true))
    }

    @Test func aForwardedCommandLineCannotTurnAutomationOn() {
        var setup = AppSetupMachine()
        #expect(setup.automationAsked(remote: true) == .ignore)
        #expect(setup.state.automation == false)
        #expect(setup.windowWanted() == .make(.notConfigured(searchPaths: []), automation: false))
    }

    @Test func automationAskedAfterTheWindowExistsIsIgnored() {
        var setup = AppSetupMachine()
        _ = setup.windowWanted()
        #expect(setup.automationAsked(remote: false) == .ignore)
        #expect(setup.state.automation == false)
    }
}
