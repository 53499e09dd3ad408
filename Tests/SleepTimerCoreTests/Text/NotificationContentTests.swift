import Testing
import SleepTimerCore

@Suite struct NotificationContentTests {
    let start = Instant(secondsSince1970: 1_795_988_460)  // 21:41 UTC
    let utc = TimeZoneRules(fixedOffsetSeconds: 0)
    let xfce = NotificationServerTraits(capabilities: ["actions", "body", "body-markup"], serverName: "Xfce Notify Daemon")
    let plain = NotificationServerTraits(capabilities: ["body"], serverName: "minimal")

    private func content(
        _ phase: TimerPhase, name: String = "Maya", server: NotificationServerTraits? = nil, live: Bool = true,
        after milliseconds: Int64 = 83 * 60_000
    ) -> NotificationContent {
        NotificationContent.make(
            babyName: try! BabyName(validating: name), phase: phase, startedAt: start,
            now: start.adding(milliseconds: milliseconds), rules: utc, timeFormat: .twelveHour, server: server ?? xfce,
            liveElapsed: live)
    }

    @Test func aRunningSleepIsNormalAndASavedOneLowNeverCritical() {
        #expect(content(.running(canComplete: true)).urgency == .normal)
        #expect(content(.saving(waitingForNetwork: false)).urgency == .normal)
        #expect(content(.failed).urgency == .normal)
        #expect(content(.saved(minutes: 83)).urgency == .low)
    }

    /// "Sleep saved" goes by itself after six seconds; the agent closes it
    /// four seconds later where the server ignored the timeout.
    @Test func aTransientNotificationStaysSixSecondsAndIsGoneFourSecondsLater() {
        #expect(NotificationContent.transientTimeout == .seconds(6))
        #expect(NotificationContent.ignoredTimeoutGrace == .seconds(4))
        #expect(NotificationContent.transientLifetime == .seconds(10))
    }

    @Test func completeIsAWordEvenWhereTheServerOffersActionIcons() {
        // xfce4-notifyd offers action-icons and then draws the icon alone.
        let icons = NotificationServerTraits(
            capabilities: ["action-icons", "actions", "body", "body-markup"], serverName: "Xfce Notify Daemon")
        #expect(icons == xfce)
        let running = content(.running(canComplete: true), server: icons)
        #expect(running.actions == [.open, .complete])
        #expect(running.actions.map(\.rawValue) == ["default", "complete"])
        #expect(running.actions.map(\.label) == ["Open", "Complete"])
        #expect(NotificationAction(key: "complete") == .complete)
        #expect(NotificationAction(key: "default") == .open)
        #expect(NotificationAction(key: "object-select-symbolic") == nil)
        #expect(NotificationAction(key: "unknown") == nil)
    }

    @Test func onlyGnome46AndLaterShowAReplacedNotificationAgainUnlessItsUrgencyIsLow() {
        let capabilities = ["actions", "body", "body-markup", "persistence"]
        for (version, banners) in [("43.9", false), ("45.2", false), ("46.0", true), ("48.7", true), ("50", true), ("", false)] {
            let gnome = NotificationServerTraits(capabilities: capabilities, serverName: "gnome-shell", version: version)
            #expect(gnome.bannersUnlessLowUrgency == banners, "GNOME \(version)")
            #expect(gnome.alertsOnUpdate)
        }
        #expect(!NotificationServerTraits(capabilities: capabilities, serverName: "Plasma", version: "6.3.6").bannersUnlessLowUrgency)
        #expect(!NotificationServerTraits(capabilities: capabilities, serverName: "Xfce Notify Daemon", version: "0.9.7")
            .bannersUnlessLowUrgency)
    }

    /// Only a server known by name banners again or needs an Open button:
    /// one described by its basic traits alone does neither.
    @Test func aServerOfBasicTraitsAloneNeedsNoServerSpecificHandling() {
        let plain = NotificationServerTraits(actions: true, bodyMarkup: true, alertsOnUpdate: false)
        #expect(!plain.bannersUnlessLowUrgency)
        #expect(!plain.needsOpenButton)
    }

    @Test func openIsAButtonOfItsOwnWhereTheServerDrawsNoneForTheBodysClick() {
        let capabilities = ["actions", "body", "body-markup", "persistence"]
        for server in ["gnome-shell", "Plasma"] {
            let traits = NotificationServerTraits(capabilities: capabilities, serverName: server)
            #expect(traits.needsOpenButton, "\(server)")
            let running = content(.running(canComplete: true), server: traits)
            #expect(running.actions == [.open, .openButton, .complete], "\(server)")
            #expect(running.actions.map(\.rawValue) == ["default", "open", "complete"])
            #expect(running.actions.map(\.label) == ["Open", "Open", "Complete"])
            #expect(content(.failed, server: traits).actions == [.open, .openButton])
            #expect(content(.running(canComplete: false), server: traits).actions == [.open, .openButton])
            #expect(content(.saving(waitingForNetwork: false), server: traits).actions.isEmpty)
        }
        // xfce4-notifyd draws "default" as a button labelled Open already.
        #expect(!xfce.needsOpenButton)
        #expect(content(.running(canComplete: true)).actions == [.open, .complete])
        #expect(NotificationAction(key: "open") == .openButton)
        // Without actions there is nothing to press, Open included.
        let noActions = NotificationServerTraits(capabilities: ["body"], serverName: "Plasma")
        #expect(content(.running(canComplete: true), server: noActions).actions.isEmpty)
    }

    @Test func onlyTheUrgencyApartIsTheSameContent() {
        var quiet = content(.running(canComplete: true))
        quiet.urgency = .low
        #expect(quiet != content(.running(canComplete: true)))
        #expect(quiet.sameApartFromUrgency(content(.running(canComplete: true))))
        #expect(!quiet.sameApartFromUrgency(content(.running(canComplete: false))))
    }

    @Test func textThatIsNotUpdatedSaysOnlyWhatStaysTrue() {
        #expect(content(.running(canComplete: true), live: false).body == "Asleep since 9:41 PM")
    }

    @Test func aStartBeforeMidnightIsSaidToBeYesterday() {
        // 21:41 started, now 02:41 the next day.
        #expect(content(.running(canComplete: true), live: false, after: 5 * 3_600_000).body
            == "Asleep since yesterday, 9:41 PM")
    }

    @Test func anOlderStartNamesItsWeekday() {
        // 2026-11-29 was a Sunday.
        #expect(content(.running(canComplete: false), live: false, after: 30 * 3_600_000).body
            == "Asleep since Sunday, 9:41 PM\nOpen the app to finish it.")
    }

    @Test func aRunningTimerShowsNameStartElapsedAndComplete() {
        let running = content(.running(canComplete: true))
        #expect(running.summary == "Maya is asleep")
        #expect(running.body == "Asleep since 9:41 PM · 1 h 23 min")
        #expect(running.actions == [.open, .complete])
        #expect(running.persistent)
    }

    @Test func theNoticeThatNoSleepRunsHasNoButtonAndGoesByItself() {
        let notice = NotificationContent.noSleepRunning
        #expect(notice.summary == "No Sleep is running")
        #expect(notice.actions.isEmpty)
        #expect(!notice.persistent)
    }

    @Test func withoutATokenOnlyOpenIsOffered() {
        let running = content(.running(canComplete: false))
        #expect(running.actions == [.open])
        #expect(running.body.hasSuffix("Open the app to finish it."))
    }

    @Test func aServerWithoutActionsGetsTheWordsInstead() {
        let running = content(.running(canComplete: true), server: plain)
        #expect(running.actions.isEmpty)
        #expect(running.body == "Asleep since 9:41 PM · 1 h 23 min\nOpen the app to complete it.")
    }

    @Test func theSummaryIsPlainAndTheBodyIsEscapedForMarkupServers() {
        let running = content(.running(canComplete: true), name: "<b>Leo</b> & Co")
        #expect(running.summary == "<b>Leo</b> & Co is asleep")
        let failed = content(.failed)
        #expect(failed.body == "Couldn&#39;t save. Open the app to finish")
        #expect(content(.failed, server: plain).body == "Couldn't save. Open the app to finish")
    }

    @Test func savingSavedAndFailed() {
        #expect(content(.saving(waitingForNetwork: false)) == NotificationContent(
            summary: "Maya's sleep", body: "Saving…", actions: [], persistent: true))
        #expect(content(.saving(waitingForNetwork: true)).body == "Saving… It will save when you are back online.")
        let saved = content(.saved(minutes: 102))
        #expect(saved.body == "Sleep saved · 1 h 42 min")
        #expect(!saved.persistent)
        #expect(saved.actions.isEmpty)
        #expect(content(.failed).actions == [.open])
    }

    @Test func liveElapsedFollowsTheConfigurationAndTheServer() {
        let gnome = NotificationServerTraits(capabilities: ["actions", "body-markup", "persistence"], serverName: "gnome-shell")
        #expect(!gnome.updatesElapsedTime(.auto))
        #expect(gnome.updatesElapsedTime(.on))
        #expect(xfce.updatesElapsedTime(.auto))
        #expect(!xfce.updatesElapsedTime(.off))
    }
}

/// Where a baby's name goes in the agent's notifications: the summary,
/// plain text on every server, as written; a body never carries it, and a
/// body read as markup is escaped.
@Suite struct NotificationContentMarkupTests {
    let start = Instant(secondsSince1970: 1_795_988_460)
    let markupName = #"<a href="https://phish.example/login">Maya</a>"#
    let xfce = NotificationServerTraits(capabilities: ["actions", "body", "body-markup"], serverName: "Xfce Notify Daemon")
    let noButtons = NotificationServerTraits(capabilities: ["body", "body-markup"], serverName: "minimal")

    func content(_ phase: TimerPhase, server: NotificationServerTraits) -> NotificationContent {
        NotificationContent.make(
            babyName: try! BabyName(validating: markupName), phase: phase, startedAt: start,
            now: start.adding(milliseconds: 60_000), rules: TimeZoneRules(fixedOffsetSeconds: 0), timeFormat: .twelveHour,
            server: server, liveElapsed: true)
    }

    let phases: [TimerPhase] = [
        .running(canComplete: true), .running(canComplete: false), .saving(waitingForNetwork: false),
        .saving(waitingForNetwork: true), .saved(minutes: 83), .failed,
    ]

    @Test func theNameIsInTheSummaryAsWrittenAndInNoBody() {
        for server in [xfce, noButtons] {
            for phase in phases {
                let shown = content(phase, server: server)
                #expect(shown.summary.contains(markupName), "\(phase)")
                #expect(!shown.body.contains("Maya") && !shown.body.contains("<"), "\(phase): \(shown.body)")
            }
        }
    }

    @Test func eachServerSaysHowItReadsTheBody() {
        #expect(xfce.bodyReading == .markup)
        #expect(NotificationServerTraits(capabilities: ["actions", "body"], serverName: "plain").bodyReading == .plainText)
        var portal = NotificationServerTraits(actions: true, bodyMarkup: false, alertsOnUpdate: true)
        portal.bodyMayBeMarkup = true
        #expect(portal.bodyReading == .eitherWay)
        for phase in phases {
            let shown = content(phase, server: portal)
            #expect(!shown.body.contains("<") && !shown.body.contains("&"), "\(phase): \(shown.body)")
        }
    }
}
