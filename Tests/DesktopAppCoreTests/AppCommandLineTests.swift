import DesktopAppCore
import Testing

@Suite struct AppCommandLineTests {
    let link = AppDeepLinkTests.valid

    @Test func noArgumentShowsTheWindow() {
        #expect(AppCommandLine(arguments: ["dreamsforlittles"]).request == .show)
    }

    @Test func oneLinkOpensIt() throws {
        #expect(AppCommandLine(arguments: ["dreamsforlittles", link]).request == .open(try AppDeepLink(parsing: link)))
    }

    @Test func aBadLinkIsRefusedNamingTheLinkAndWhy() {
        guard case .refuse(let message) = AppCommandLine(arguments: ["dreamsforlittles", "javascript:alert(1)"]).request else {
            Issue.record("not refused")
            return
        }
        #expect(message.contains("javascript:alert(1)"))
        #expect(message.contains("dreamsforlittles://"))
    }

    @Test func twoLinksAreRefused() {
        #expect(AppCommandLine(arguments: ["dreamsforlittles", link, link]).request
            == .refuse(AppText.commandLineTooManyLinks(2)))
    }

    @Test func automationIsAnOptionAndOnlyThat() {
        let line = AppCommandLine(arguments: ["dreamsforlittles", "--automation"])
        #expect(line.automation)
        #expect(line.request == .show)
        #expect(!AppCommandLine(arguments: ["dreamsforlittles", link]).automation)
        #expect(!AppCommandLine(arguments: ["dreamsforlittles", "--", "--automation"]).automation)
    }

    @Test func helpAndUnknownOptions() {
        #expect(AppCommandLine(arguments: ["dreamsforlittles", "--help"]).request == .help)
        guard case .refuse(let message) = AppCommandLine(arguments: ["dreamsforlittles", "--nope"]).request else {
            Issue.record("not refused")
            return
        }
        #expect(message.contains("--nope"))
    }
}
