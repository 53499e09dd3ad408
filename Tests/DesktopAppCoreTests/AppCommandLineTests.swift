import DesktopAppCore
import Testing

@Suite struct AppCommandLineTests {
    let link = AppDeepLinkTests.valid

    @Test func noArgumentShowsTheWindow() {
        #expect(AppCommandLine(arguments: ["dreamsforlittles"]).request == .show)
    }

    @Test func theAppsStartPageLinkShowsTheWindow() {
        #expect(AppCommandLine(arguments: ["dreamsforlittles", "dreamsforlittles://"]).request == .show)
        #expect(AppCommandLine(arguments: ["dreamsforlittles", "DreamsForLittles://"]).request == .show)
        #expect(AppCommandLine(arguments: ["dreamsforlittles", "dreamsforlittles://x"]).request != .show)
    }

    @Test func oneLinkOpensIt() throws {
        #expect(AppCommandLine(arguments: ["dreamsforlittles", link]).request == .open(try AppDeepLink(parsing: link)))
    }

    @Test func aBadLinkIsRefusedNamingTheLinkAndWhy() {
        guard case .refuse(let message, let refusal) = AppCommandLine(arguments: ["dreamsforlittles", "javascript:alert(1)"]).request
        else {
            Issue.record("not refused")
            return
        }
        #expect(message.contains("javascript:alert(1)"))
        #expect(message.contains("dreamsforlittles://"))
        // The window and the log say why, without the caller's text.
        #expect(refusal == .notTheAppsScheme)
    }

    @Test func twoLinksAreRefused() {
        #expect(AppCommandLine(arguments: ["dreamsforlittles", link, link]).request
            == .refuse(AppText.commandLineTooManyLinks(2), link: nil))
    }

    @Test func automationIsAnOptionAndOnlyThat() {
        let line = AppCommandLine(arguments: ["dreamsforlittles", "--automation"])
        #expect(line.automation)
        #expect(line.request == .show)
        #expect(!AppCommandLine(arguments: ["dreamsforlittles", link]).automation)
        #expect(!AppCommandLine(arguments: ["dreamsforlittles", "--", "--automation"]).automation)
    }

    @Test func anActivationTokenMayHoldASpaceButNoControlCharacter() {
        #expect(AppCommandLine.activationToken(environment: ["XDG_ACTIVATION_TOKEN": "a b"]) == "a b")
        #expect(AppCommandLine.activationToken(environment: ["XDG_ACTIVATION_TOKEN": "a\u{1F}b"]) == nil)
        #expect(AppCommandLine.activationToken(environment: ["XDG_ACTIVATION_TOKEN": "a\u{7F}b"]) == nil)
    }

    @Test func theLaunchsActivationTokenComesFromTheEnvironmentAndTravelsAsAnOption() throws {
        #expect(AppCommandLine.activationToken(environment: ["DESKTOP_STARTUP_ID": "x11_TIME1", "XDG_ACTIVATION_TOKEN": "wl"]) == "wl")
        #expect(AppCommandLine.activationToken(environment: ["DESKTOP_STARTUP_ID": "x11_TIME1"]) == "x11_TIME1")
        #expect(AppCommandLine.activationToken(environment: ["DESKTOP_STARTUP_ID": "", "XDG_ACTIVATION_TOKEN": "a\nb"]) == nil)
        let line = AppCommandLine(arguments: ["dreamsforlittles", AppCommandLine.activationTokenOption + "x11_TIME1", link])
        #expect(line.activationToken == "x11_TIME1")
        #expect(line.request == .open(try AppDeepLink(parsing: link)))
        #expect(AppCommandLine(arguments: ["dreamsforlittles"]).activationToken == nil)
    }

    @Test func helpAndUnknownOptions() {
        #expect(AppCommandLine(arguments: ["dreamsforlittles", "--help"]).request == .help)
        guard case .refuse(let message, nil) = AppCommandLine(arguments: ["dreamsforlittles", "--nope"]).request else {
            Issue.record("not refused")
            return
        }
        #expect(message.contains("--nope"))
    }
}
