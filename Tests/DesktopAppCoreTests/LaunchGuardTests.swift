import DesktopAppCore
import SleepTimerCore
import Testing

@Suite struct LaunchGuardTests {
    static let origin = try! APIOrigin(parsing: "https://app.example:8443")
    var launchGuard = LaunchGuard(policy: NavigationPolicy(webOrigin: origin))
    static let gesture = NavigationMoment.navigation(userGesture: true)
    static let elsewhere = "https://elsewhere.example/page?x=1"

    @Test mutating func aClickInTheTopFrameLeavesOnceAndOnlyOnce() {
        launchGuard.clickedInTopFrame(Self.elsewhere + "#part", at: 1_000)
        #expect(launchGuard.decide(Self.elsewhere, at: Self.gesture, now: 1_010).decision == .openOutside(Self.elsewhere))
        // The same link asked about again (a window.open in the click's
        // handler, say) has no click left: it stays in the page.
        #expect(launchGuard.decide(Self.elsewhere, at: Self.gesture, now: 1_020).decision == .load)
        guard case .refuse = launchGuard.decide(Self.elsewhere, at: .newWindow(userGesture: true), now: 1_030).decision else {
            Issue.record("one click launched twice")
            return
        }
    }

    @Test mutating func aClickOnAnotherLinkOrAnOldClickLaunchesNothing() {
        launchGuard.clickedInTopFrame("https://elsewhere.example/other", at: 1_000)
        #expect(launchGuard.decide(Self.elsewhere, at: Self.gesture, now: 1_010).decision == .load)
        launchGuard.clickedInTopFrame(Self.elsewhere, at: 2_000)
        let late = 2_000 + LaunchGuard.clickLifetime.wholeMilliseconds + 1
        #expect(launchGuard.decide(Self.elsewhere, at: Self.gesture, now: late).decision == .load)
    }

    @Test mutating func aClickExactlyItsLifetimeOldStillLaunches() {
        launchGuard.clickedInTopFrame(Self.elsewhere, at: 1_000)
        let edge = 1_000 + LaunchGuard.clickLifetime.wholeMilliseconds
        // A later click, at that edge, keeps the first.
        launchGuard.clickedInTopFrame("https://elsewhere.example/other", at: edge)
        #expect(launchGuard.decide(Self.elsewhere, at: Self.gesture, now: edge).decision == .openOutside(Self.elsewhere))
    }

    @Test mutating func theNinthClickPushesTheFirstOut() {
        // Eight clicks are kept.
        for n in 0..<9 { launchGuard.clickedInTopFrame(Self.elsewhere + "&n=\(n)", at: 1_000) }
        #expect(launchGuard.decide(Self.elsewhere + "&n=0", at: Self.gesture, now: 1_010).decision == .load)
        #expect(launchGuard.decide(Self.elsewhere + "&n=1", at: Self.gesture, now: 1_010).decision
            == .openOutside(Self.elsewhere + "&n=1"))
    }

    @Test mutating func aRefusalIsLoggedOncePerOriginAndMinute() {
        let landing = "https://evil.example/landing?n="
        var lines: [String] = []
        for n in 0..<40 {
            if let line = launchGuard.decide(landing + "\(n)", at: .mainFrameResponse, now: Int64(n) * 250).log {
                lines.append(line)
            }
        }
        #expect(lines == [AppLogText.refusedWithoutClick("https://evil.example")])
        #expect(!lines[0].contains("landing"))
        #expect(launchGuard.decide("mailto:victim@example.com?subject=x", at: .navigation(userGesture: false), now: 100).log
            == AppLogText.refusedWithoutClick("mailto:"))
        #expect(launchGuard.decide(landing + "x", at: .mainFrameResponse, now: 60_000).log != nil)
    }

    @Test mutating func aDownloadIsLoggedByItsOriginOnceAMinute() {
        let line = launchGuard.download(from: "https://evil.example:8443/file.bin?secret=1", now: 0)
        #expect(line == AppLogText.refusedDownload("https://evil.example:8443"))
        #expect(launchGuard.download(from: "https://evil.example:8443/other", now: 59_000) == nil)
        #expect(launchGuard.download(from: "https://app.example:8443/attachment", now: 59_000)
            == AppLogText.refusedDownload("https://app.example:8443"))
        #expect(launchGuard.download(from: nil, now: 0) == AppLogText.refusedDownload("?"))
    }

    @Test mutating func manyOriginsKeepTheMemoryBounded() {
        for n in 0..<1_000 {
            _ = launchGuard.decide("https://o\(n).example/", at: .mainFrameResponse, now: Int64(n))
        }
        // Past the bound a new origin goes unlogged until the minute passes,
        // instead of the table growing.
        #expect(launchGuard.decide("https://late.example/", at: .mainFrameResponse, now: 1_000).log == nil)
        #expect(launchGuard.decide("https://late.example/", at: .mainFrameResponse, now: 70_000).log != nil)
    }
}

/// The memory of logged refusals, at its bounds.
@Suite struct RefusalLogTests {
    /// Every key logged at `now` until the memory is full (256 keys).
    func full(at now: Int64) -> RefusalLog {
        var log = RefusalLog()
        for n in 0..<256 {
            let logged = log.shouldLog("k\(n)", now: now)
            #expect(logged)
        }
        return log
    }

    @Test func aFullMemoryOfRecentKeysLogsNothingNew() {
        var log = full(at: 0)
        let logged = log.shouldLog("new", now: 1)
        #expect(!logged)
    }

    @Test func keysExactlyTheQuietTimeOldAreForgottenForANewOne() {
        var log = full(at: 0)
        let logged = log.shouldLog("new", now: RefusalLog.quiet.wholeMilliseconds)
        #expect(logged)
    }
}
