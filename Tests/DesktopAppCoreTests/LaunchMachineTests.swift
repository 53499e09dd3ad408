@testable import DesktopAppCore
import SleepTimerCore
import Testing

@Suite struct LaunchMachineTests {
    static let origin = try! APIOrigin(parsing: "https://app.example:8443")
    var launches = LaunchMachine(rule: NavigationRule(webOrigin: origin))
    static let gesture = NavigationMoment.navigation(userGesture: true)
    static let elsewhere = "https://elsewhere.example/page?x=1"

    /// The log line a navigation's action says to write, if any.
    static func logged(_ action: LaunchMachine.NavigationAskedAction) -> String? {
        guard case .refuse(_, let log) = action else { return nil }
        return log
    }

    /// The log line a refused download's action says to write, if any.
    static func logged(_ action: LaunchMachine.DownloadRefusedAction?) -> String? {
        guard case .log(let line)? = action else { return nil }
        return line
    }

    @Test mutating func aClickInTheTopFrameLeavesOnceAndOnlyOnce() {
        launches.clickedInTopFrame(Self.elsewhere + "#part", at: moment(1_000))
        #expect(launches.navigationAsked(Self.elsewhere, at: Self.gesture, now: moment(1_010)) == .openOutside(Self.elsewhere))
        // The same link asked about again (a window.open in the click's
        // handler, say) has no click left: it stays in the page.
        #expect(launches.navigationAsked(Self.elsewhere, at: Self.gesture, now: moment(1_020)) == .load)
        guard case .refuse = launches.navigationAsked(Self.elsewhere, at: .newWindow(userGesture: true), now: moment(1_030)) else {
            Issue.record("one click launched twice")
            return
        }
    }

    @Test mutating func aClickOnAnotherLinkOrAnOldClickLaunchesNothing() {
        launches.clickedInTopFrame("https://elsewhere.example/other", at: moment(1_000))
        #expect(launches.navigationAsked(Self.elsewhere, at: Self.gesture, now: moment(1_010)) == .load)
        launches.clickedInTopFrame(Self.elsewhere, at: moment(2_000))
        let late = 2_000 + LaunchMachine.Settings().clickLifetime.wholeMilliseconds + 1
        #expect(launches.navigationAsked(Self.elsewhere, at: Self.gesture, now: moment(late)) == .load)
    }

    @Test mutating func aClickExactlyItsLifetimeOldStillLaunches() {
        launches.clickedInTopFrame(Self.elsewhere, at: moment(1_000))
        let edge = 1_000 + LaunchMachine.Settings().clickLifetime.wholeMilliseconds
        // A later click, at that edge, keeps the first.
        launches.clickedInTopFrame("https://elsewhere.example/other", at: moment(edge))
        #expect(launches.navigationAsked(Self.elsewhere, at: Self.gesture, now: moment(edge)) == .openOutside(Self.elsewhere))
    }

    @Test mutating func theNinthClickPushesTheFirstOut() {
        // Eight clicks are kept.
        for n in 0..<9 { launches.clickedInTopFrame(Self.elsewhere + "&n=\(n)", at: moment(1_000)) }
        #expect(launches.navigationAsked(Self.elsewhere + "&n=0", at: Self.gesture, now: moment(1_010)) == .load)
        #expect(launches.navigationAsked(Self.elsewhere + "&n=1", at: Self.gesture, now: moment(1_010))
            == .openOutside(Self.elsewhere + "&n=1"))
    }

    @Test mutating func aRefusalIsLoggedOncePerOriginAndMinute() {
        let landing = "https://evil.example/landing?n="
        var lines: [String] = []
        for n in 0..<40 {
            if let line = Self.logged(launches.navigationAsked(landing + "\(n)", at: .mainFrameResponse, now: moment(Int64(n) * 250))) {
                lines.append(line)
            }
        }
        #expect(lines == [AppLogText.refusedWithoutClick("https://evil.example")])
        #expect(!lines[0].contains("landing"))
        #expect(Self.logged(launches.navigationAsked("mailto:victim@example.com?subject=x", at: .navigation(userGesture: false), now: moment(100)))
            == AppLogText.refusedWithoutClick("mailto:"))
        #expect(Self.logged(launches.navigationAsked(landing + "x", at: .mainFrameResponse, now: moment(60_000))) != nil)
    }

    @Test mutating func aDownloadIsLoggedByItsOriginOnceAMinute() {
        let line = Self.logged(launches.downloadRefused(from: "https://evil.example:8443/file.bin?secret=1", at: moment(0)))
        #expect(line == AppLogText.refusedDownload("https://evil.example:8443"))
        #expect(Self.logged(launches.downloadRefused(from: "https://evil.example:8443/other", at: moment(59_000))) == nil)
        #expect(Self.logged(launches.downloadRefused(from: "https://app.example:8443/attachment", at: moment(59_000)))
            == AppLogText.refusedDownload("https://app.example:8443"))
        #expect(Self.logged(launches.downloadRefused(from: nil, at: moment(0))) == AppLogText.refusedDownload("?"))
    }

    @Test mutating func manyOriginsKeepTheMemoryBounded() {
        for n in 0..<1_000 {
            _ = launches.navigationAsked("https://o\(n).example/", at: .mainFrameResponse, now: moment(Int64(n)))
        }
        // Past the bound a new origin goes unlogged until the minute passes,
        // instead of the table growing.
        #expect(Self.logged(launches.navigationAsked("https://late.example/", at: .mainFrameResponse, now: moment(1_000))) == nil)
        #expect(Self.logged(launches.navigationAsked("https://late.example/", at: .mainFrameResponse, now: moment(70_000))) != nil)
    }

    @Test mutating func theRulesOtherDecisionsPassThroughAndASchemesRefusalSaysSo() throws {
        #expect(launches.navigationAsked("https://app.example:8443/x", at: .newWindow(userGesture: false), now: moment(0))
            == .loadInWindow("https://app.example:8443/x"))
        let link = AppDeepLinkTests.valid
        #expect(launches.navigationAsked(link, at: Self.gesture, now: moment(0)) == .openLink(try AppDeepLink(parsing: link)))
        #expect(launches.navigationAsked("file:///etc/passwd", at: Self.gesture, now: moment(0))
            == .refuse(Refusal(.scheme, source: "file:"), log: AppLogText.refusedNavigation("file:")))
        #expect(launches.state.clicks.isEmpty)
    }
}
