import AgentWorkflows
import DFLTestSupport
import GLibParsing
import SleepAgent
import SleepTimerCore
import SleepTimerStore
import Testing

extension ManualAlarm: WakeAlarm {}

/// The notification surface as a record of what it was told.
final class RecordingSurface: NotificationSurface {
    var report: ((NotificationSurfaceEvent) -> Void)?
    var shown: [(TimerID, NotificationContent, UInt32)] = []
    var closed: [TimerID] = []
    private var nextID: UInt32 = 40

    func start(reporting report: @escaping (NotificationSurfaceEvent) -> Void) { self.report = report }

    /// The server answers every show with an id, as xfce4-notifyd does.
    func show(_ id: TimerID, _ content: NotificationContent, replacing: UInt32) {
        shown.append((id, content, replacing))
        nextID += 1
        report?(.shown(id, notificationID: replacing == 0 ? nextID : replacing))
    }

    func close(_ id: TimerID) { closed.append(id) }
    func drop(_ id: TimerID) {}
    func dropAll() {}
    /// The server answers every withdrawal at once.
    var withdrawn: [(TimerID, UInt32)] = []
    func withdraw(_ id: TimerID, notificationID: UInt32) {
        withdrawn.append((id, notificationID))
        report?(.withdrawn(id))
    }
    var woken: [Instant] = []
    func wake(now: Instant) { woken.append(now) }
    var notices: [NotificationContent] = []
    func notice(_ content: NotificationContent) { notices.append(content) }

    var bodies: [String] { shown.map(\.1.body) }
}

/// The platform as a queue of requests the test answers by hand.
final class RecordingTransport: CompletionTransport {
    var sent: [CompletionRecord] = []
    private var answers: [(CompletionVerdict, Duration?) -> Void] = []

    func send(_ record: CompletionRecord, answered: @escaping (CompletionVerdict, Duration?) -> Void) {
        sent.append(record)
        answers.append(answered)
    }

    /// Answers the oldest request; `platformClockOffset` as its Date says.
    func answer(_ verdict: CompletionVerdict, platformClockOffset: Duration? = nil) {
        answers.removeFirst()(verdict, platformClockOffset)
    }

    /// The completedAt of a request body, as the platform reads it.
    func completedAt(_ record: CompletionRecord) -> String? {
        record.requestBody?.withRevealedBytes { bytes in
            let text = String(decoding: bytes, as: UTF8.self)
            return text.split(separator: "\"").dropFirst(7).first.map(String.init)
        }
    }
}

/// What the agent announced, as the D-Bus object hears it.
final class RecordingObserver: AgentObserver {
    var removed: [(TimerID, RemovalReason)] = []
    var finished: [(id: TimerID, outcome: CompletionOutcome, activityID: String, sleptMinutes: Int64?)] = []
    var expiring: [(TimerID, Instant)] = []
    var changed: [TimerView] = []
    var published: [AgentProperties] = []
    func timerChanged(_ view: TimerView) { changed.append(view) }
    func timerRemoved(_ id: TimerID, reason: RemovalReason) { removed.append((id, reason)) }
    func completionFinished(_ id: TimerID, outcome: CompletionOutcome, activityID: String, sleptMinutes: Int64?) {
        finished.append((id, outcome, activityID, sleptMinutes))
    }
    func propertiesChanged(_ properties: AgentProperties, previous: AgentProperties) { published.append(properties) }
    func tokenExpiring(_ id: TimerID, expiresAt: Instant) { expiring.append((id, expiresAt)) }
}

final class RecordingOpener: LinkOpener {
    var opened: [(String, String?)] = []
    var program: String?
    func open(_ link: DeepLink, activationToken: String?) { opened.append((link.url, activationToken)) }
    func reconfigure(_ configuration: Configuration) { program = configuration.urlOpener }
}

/// The agent's shell run by hand: a real store in a temporary directory,
/// the clock and the alarm moved by the test, and the two ports recorded.
@Suite struct AgentShellTests {
    let directory = TemporaryDirectory()
    let clock = ManualClock()
    let alarm = ManualAlarm()
    let surface = RecordingSurface()
    let transport = RecordingTransport()
    let opener = RecordingOpener()
    let log = RecordingLog()

    static let timer = TimerID(Fixtures.timerID)!

    static let xfce = NotificationServer(
        owner: ":1.7", displayName: "Xfce Notify Daemon 0.7.3",
        traits: NotificationServerTraits(capabilities: ["actions", "body"], serverName: "Xfce Notify Daemon"))

    func agent() throws -> Agent {
        var configuration = Configuration()
        configuration.allowedOrigins = AllowedOrigins([Fixtures.apiOrigin])
        let store = try SleepTimerStore(location: StoreLocation(directory: directory.stateDirectory), log: log, clock: clock)
        let agent = Agent(
            store: store, configuration: configuration, timeZones: GLibTimeZones(path: "/usr/share/zoneinfo"), base64: GLibBase64(),
            timeFormat: .twentyFourHour, clock: clock, log: log, alarm: alarm, opener: opener,
            completions: CompletionMachine(random: .seeded(1)))
        agent.start(surface: surface, transport: transport)
        surface.report?(.serverChanged(Self.xfce))
        return agent
    }

    /// The notification server's watch owns no timer: the moment it asks
    /// for is on the agent's one alarm, and the alarm wakes it.
    @Test func theSurfacesWakeIsOnTheAgentsOneAlarm() throws {
        let agent = try agent()
        withExtendedLifetime(agent) {
            #expect(alarm.moment == nil)
            let moment = clock.now().adding(milliseconds: 250)
            surface.report?(.wakeAt(moment))
            #expect(alarm.moment == moment)
            #expect(alarm.fire(advancing: clock))
            #expect(surface.woken == [moment])
            #expect(alarm.moment == nil)
        }
    }

    @Test func aWakeTheSurfaceNoLongerWantsIsCancelled() throws {
        let agent = try agent()
        withExtendedLifetime(agent) {
            surface.report?(.wakeAt(clock.now().adding(milliseconds: 500)))
            surface.report?(.wakeAt(nil))
            #expect(alarm.moment == nil)
            #expect(surface.woken == [])
        }
    }

    @Test func aMirroredTimerIsShownWithComplete() throws {
        let agent = try agent()
        try agent.mirror(Fixtures.request())
        #expect(surface.shown.last?.1.summary == "Maya is asleep")
        #expect(surface.shown.last?.1.actions == [.open, .complete])
        #expect(try agent.list().first?.notification == .shown)
    }

    @Test func theDesktopsClockIsReadWhenTheFirstTimerIsShownNotBefore() throws {
        let agent = try agent()
        var reads = 0
        agent.readTimeFormatWhenNeeded {
            reads += 1
            return .twelveHour
        }
        agent.clockChanged(reason: "the clock was set")
        #expect(reads == 0)
        try agent.mirror(Fixtures.request())
        #expect(reads == 1)
        #expect(surface.shown.count == 1)
        #expect(surface.bodies.last?.hasPrefix("Asleep since 9:18") == true)
        alarm.fire(advancing: clock)
        #expect(reads == 1)
    }

    @Test func completeFromTheNotificationIsSentOnceAndSaidGoodbyeTo() throws {
        let agent = try agent()
        try agent.mirror(Fixtures.request())
        surface.report?(.actionInvoked(Self.timer, .complete, activationToken: nil))
        #expect(transport.sent.count == 1)
        #expect(surface.bodies.last == "Saving…")
        transport.answer(.created(activityID: "act-1"))
        #expect(surface.bodies.last == "Sleep saved · 1 h 23 min")
        #expect(try agent.list().isEmpty)
        #expect(agent.properties.pendingCompletions == 0)
        #expect(transport.sent.count == 1)
    }

    /// A keystroke has no terminal: with no Sleep to complete, a short
    /// notice says so, and nothing is sent.
    @Test func completeRunningWithNoSleepShowsTheNoticeAndSendsNothing() throws {
        let agent = try agent()
        #expect(try agent.completeRunning() == .tellNoneRunning)
        #expect(surface.notices == [.noSleepRunning])
        #expect(surface.notices.first?.persistent == false)
        #expect(surface.shown.isEmpty)
        #expect(transport.sent.isEmpty)
    }

    @Test func completeRunningWithOneSleepIsTheNotificationsCompleteWithoutANotice() throws {
        let agent = try agent()
        try agent.mirror(Fixtures.request())
        #expect(try agent.completeRunning() == .complete(Self.timer))
        #expect(transport.sent.count == 1)
        transport.answer(.created(activityID: "act-1"))
        #expect(surface.bodies.last == "Sleep saved · 1 h 23 min")
        #expect(surface.notices.isEmpty)
    }

    @Test func completeByIdSendsTheRecordTheStoreReturnedAtOnce() throws {
        let agent = try agent()
        try agent.mirror(Fixtures.request())
        try agent.complete(Self.timer, completedAt: nil)
        #expect(transport.sent.map(\.timerID) == [Self.timer])
        #expect(transport.sent.first?.requestBody == NativeCompletion.requestBody(
            token: ActionToken(unvalidated: Fixtures.canary), completedAt: Fixtures.now))
        #expect(transport.sent.first?.attempts == 0)
        #expect(try agent.list().first?.state == .saving)
        #expect(surface.bodies.last == "Saving…")
        #expect(agent.properties.pendingCompletions == 1)
        // A second click finds it being saved.
        #expect(throws: ServiceError.self) { try agent.complete(Self.timer, completedAt: nil) }
        #expect(transport.sent.count == 1)
    }

    @Test func completeOfATimerNotMirroredIsRefusedAndNothingIsSent() throws {
        let agent = try agent()
        do {
            try agent.complete(Self.timer, completedAt: nil)
            Issue.record("an unknown timer was completed")
        } catch {
            #expect(error.code == .unknownTimer)
        }
        #expect(transport.sent.isEmpty)
    }

    @Test func theTimerLeavesTheListForTheReasonTheAnswerGives() throws {
        let agent = try agent()
        let observer = RecordingObserver()
        agent.addObserver(observer)
        try agent.mirror(Fixtures.request())
        try agent.complete(Self.timer, completedAt: nil)
        transport.answer(.alreadyCompleted)
        #expect(observer.removed.map(\.1) == [.completedElsewhere])
        #expect(observer.finished.map(\.outcome) == [.alreadyCompleted])
        #expect(try agent.list().isEmpty)
        try agent.mirror(Fixtures.request { $0.revision = 4 })
        try agent.complete(Self.timer, completedAt: nil)
        transport.answer(.created(activityID: "act-2"))
        #expect(observer.removed.map(\.1) == [.completedElsewhere, .completed])
        #expect(observer.finished.map(\.outcome) == [.alreadyCompleted, .created])
        #expect(observer.finished.last?.activityID == "act-2")
        #expect(observer.finished.last?.sleptMinutes == 83)
    }

    @Test func aRetryWaitsForTheAlarmAndSendsTheSameRecordAgain() throws {
        let agent = try agent()
        try agent.mirror(Fixtures.request())
        _ = try agent.complete(Fixtures.timerID, completedAt: nil)
        transport.answer(.retry(retryAfter: .milliseconds(20_000), reason: "the platform is busy (503)"))
        #expect(surface.bodies.last == "Saving… It will save when you are back online.")
        #expect(alarm.moment == clock.now().adding(milliseconds: 20_000))
        alarm.fire(advancing: clock)
        #expect(transport.sent.count == 2)
        #expect(transport.sent[1].requestBody == transport.sent[0].requestBody)
        #expect(transport.sent[1].attempts == 1)
    }

    @Test func theMinuteBoundaryMovesTheElapsedTimeOnThroughTheAlarm() throws {
        let agent = try agent()
        try agent.mirror(Fixtures.request())
        #expect(surface.bodies.last?.hasSuffix("1 h 23 min") == true)
        #expect(alarm.moment == clock.now().adding(milliseconds: Milliseconds.minute))
        alarm.fire(advancing: clock)
        #expect(surface.bodies.last?.hasSuffix("1 h 24 min") == true)
        withExtendedLifetime(agent) {}
    }

    @Test func anExpiredTokenKeepsTheSleepShownWithOpenOnly() throws {
        let agent = try agent()
        try agent.mirror(Fixtures.request { $0.tokenExpiresAtMilliseconds = Fixtures.now.millisecondsSince1970 + 30_000 })
        let observer = RecordingObserver()
        agent.addObserver(observer)
        while let moment = alarm.moment, moment <= Fixtures.now.adding(milliseconds: 30_000) { alarm.fire(advancing: clock) }
        let listed = try agent.list()
        #expect(listed.first?.state == .tokenExpired)
        #expect(listed.first?.canComplete == false)
        #expect(surface.shown.last?.1.actions == [.open])
        #expect(surface.closed.isEmpty)
        #expect(observer.removed.isEmpty)
    }

    @Test func theTokenIsRenewedAheadOfItsExpiry() throws {
        let agent = try agent()
        let observer = RecordingObserver()
        agent.addObserver(observer)
        let expiresAt = Fixtures.now.adding(milliseconds: 2 * Milliseconds.hour)
        try agent.mirror(Fixtures.request { $0.tokenExpiresAtMilliseconds = expiresAt.millisecondsSince1970 })
        while observer.expiring.isEmpty, alarm.fire(advancing: clock) {}
        #expect(observer.expiring.map(\.1) == [expiresAt])
        #expect(clock.now() == expiresAt.adding(milliseconds: -30 * Milliseconds.minute))
    }

    /// A renewal asked for and not come within its bound starts the app
    /// in the background, at that bound, on the agent's one alarm.
    @Test func aRenewalThatDoesNotComeStartsTheAppAtItsBound() throws {
        let agent = try agent()
        var launches = 0
        agent.launchAppInBackground = { launches += 1 }
        let expiresAt = Fixtures.now.adding(milliseconds: 2 * Milliseconds.hour)
        try agent.mirror(Fixtures.request { $0.tokenExpiresAtMilliseconds = expiresAt.millisecondsSince1970 })
        while launches == 0, let moment = alarm.moment, moment < expiresAt { alarm.fire(advancing: clock) }
        #expect(launches == 1)
        #expect(clock.now() == expiresAt.adding(milliseconds: -30 * Milliseconds.minute).adding(BackgroundLaunchMachine.Settings().renewalBound))
    }

    @Test func aSleepIsDroppedOnlyWhenNoSleepCouldStillRun() throws {
        let agent = try agent()
        let observer = RecordingObserver()
        agent.addObserver(observer)
        try agent.mirror(Fixtures.request { $0.tokenExpiresAtMilliseconds = Fixtures.now.millisecondsSince1970 + 30_000 })
        let end = Fixtures.now.adding(milliseconds: 48 * Milliseconds.hour - 83 * Milliseconds.minute)
        while observer.removed.isEmpty, alarm.fire(advancing: clock) {}
        #expect(clock.now() == end)
        #expect(observer.removed.map(\.1) == [.expired])
        #expect(surface.closed == [Self.timer])
    }

    @Test func aSetClockBringsTextAndExpiryUpToDateAtOnce() throws {
        let agent = try agent()
        try agent.mirror(Fixtures.request { $0.tokenExpiresAtMilliseconds = Fixtures.now.millisecondsSince1970 + Milliseconds.hour })
        // Two hours pass while the machine sleeps; nothing fires.
        clock.advance(milliseconds: 2 * Milliseconds.hour)
        agent.clockChanged(reason: "the machine woke from a suspend")
        #expect(try agent.list().first?.state == .tokenExpired)
        #expect(surface.bodies.last == "Asleep since 21:18 · 3 h 23 min\nOpen the app to finish it.")
        #expect(surface.shown.last?.1.actions == [.open])
        #expect(alarm.moment != nil)
    }

    @Test func aTokenThatRanOutDuringASuspendIsAskedForAgainAndANewOneBringsCompleteBack() throws {
        let agent = try agent()
        let observer = RecordingObserver()
        agent.addObserver(observer)
        let expiresAt = Fixtures.now.adding(milliseconds: Milliseconds.hour)
        try agent.mirror(Fixtures.request { $0.tokenExpiresAtMilliseconds = expiresAt.millisecondsSince1970 })
        clock.advance(milliseconds: 2 * Milliseconds.hour)
        agent.clockChanged(reason: "the machine woke from a suspend")
        #expect(observer.expiring.map(\.1) == [expiresAt])
        #expect(try agent.list().first?.state == .tokenExpired)
        let renewed = clock.now().adding(milliseconds: 12 * Milliseconds.hour)
        try agent.mirror(Fixtures.request {
            $0.tokenExpiresAtMilliseconds = renewed.millisecondsSince1970
            $0.revision = 4
        })
        #expect(try agent.list().first?.canComplete == true)
        #expect(surface.shown.last?.1.actions.contains(.complete) == true)
    }

    @Test func aTimeThePlatformRefusesIsCorrectedOnceByItsClock() throws {
        let agent = try agent()
        try agent.mirror(Fixtures.request())
        _ = try agent.complete(Fixtures.timerID, completedAt: nil)
        #expect(transport.completedAt(transport.sent[0]) == "2026-11-29T21:41:00.000Z")
        // The platform's clock is 90 s behind: the time is in its future.
        transport.answer(.clockRejected(reason: "400 invalid_request"), platformClockOffset: .milliseconds(-90_000))
        #expect(transport.sent.count == 2)
        #expect(transport.completedAt(transport.sent[1]) == "2026-11-29T21:39:30.000Z")
        #expect(transport.sent[1].retimed)
        // A second refusal is final.
        transport.answer(.clockRejected(reason: "400 invalid_request"), platformClockOffset: .milliseconds(-90_000))
        #expect(transport.sent.count == 2)
        #expect(try agent.list().first?.state == .saveFailed)
    }

    @Test func theAppsMeasureOfThePlatformsClockShiftsTheTimeSent() throws {
        let agent = try agent()
        try agent.mirror(Fixtures.request { $0.platformClockOffset = .milliseconds(90_000) })
        _ = try agent.complete(Fixtures.timerID, completedAt: nil)
        #expect(transport.completedAt(transport.sent[0]) == "2026-11-29T21:42:30.000Z")
        transport.answer(.created(activityID: "a"))
        // The sleep lasted from its start to the click, by either clock.
        #expect(surface.bodies.last == "Sleep saved · 1 h 23 min")
    }

    @Test func aReloadedConfigurationAppliesWhatItCanAtOnceAndNamesTheRest() throws {
        let agent = try agent()
        try agent.mirror(Fixtures.request())
        #expect(alarm.moment != nil)
        var new = agent.configuration
        new.liveElapsed = .off
        new.urlOpener = "/usr/bin/true"
        new.pinnedPublicKeys = ["sha256//YhKJKSzoTt2b5FP18fvpHo7fJYqQCjAa3HWY3tvRMwE="]
        let change = agent.reconfigure(new)
        #expect(change.applied == ["[app] url-opener", "[notifications] live-elapsed"])
        #expect(change.needsRestart == ["[platform] pinned-public-keys"])
        // The text says only what stays true, and nothing wakes on the minute.
        #expect(surface.bodies.last == "Asleep since 21:18")
        #expect(opener.program == "/usr/bin/true")
        #expect(alarm.moment == Fixtures.now.adding(milliseconds: 12 * Milliseconds.hour - 30 * Milliseconds.minute))
    }

    /// AllowedOrigins (what dfl-sleepctl status prints) says the list the
    /// agent uses, and a reload that changes it announces the new one.
    @Test func theAllowedOriginsArePublishedAndFollowAReload() throws {
        let agent = try agent()
        let observer = RecordingObserver()
        agent.addObserver(observer)
        #expect(agent.properties.allowedOrigins == [Fixtures.apiOrigin.description])
        var new = agent.configuration
        new.allowedOrigins = Configuration().allowedOrigins
        #expect(agent.reconfigure(new).applied == ["[platform] allowed-origins"])
        #expect(agent.properties.allowedOrigins == ["https://api.dreamsforlittles.com"])
        #expect(observer.published.last?.allowedOrigins == ["https://api.dreamsforlittles.com"])
        // The fixtures' origin is no longer among them.
        do {
            try agent.mirror(Fixtures.request())
            Issue.record("a Mirror from \(Fixtures.origin) was accepted")
        } catch {
            #expect(error.code == .originNotAllowed)
        }
    }

    @Test func aRenewalThatWonTheRaceLetsTheNewerTokenSendTheSameCompletion() throws {
        let agent = try agent()
        try agent.mirror(Fixtures.request())
        _ = try agent.complete(Fixtures.timerID, completedAt: nil)
        // The app renewed the token just before the click reached the platform.
        let newer = "dflnat_NEWER_q8Zr2mXv0Lw9sT4kP1nB7cY3uH6eJ5dA"
        try agent.mirror(Fixtures.request { $0.actionToken = ActionToken(unvalidated: newer); $0.revision = 4 })
        transport.answer(.tokenRevoked(reason: "a newer action token replaced this one (401 token_revoked)"))
        #expect(transport.sent.count == 2)
        #expect(transport.sent[1].requestBody == NativeCompletion.requestBody(
            token: ActionToken(unvalidated: newer), completedAt: Fixtures.now))
        transport.answer(.created(activityID: "a"))
        #expect(try agent.list().isEmpty)
    }

    @Test func aRevokedTokenWithNoNewerOneNeedsTheApp() throws {
        let agent = try agent()
        try agent.mirror(Fixtures.request())
        _ = try agent.complete(Fixtures.timerID, completedAt: nil)
        transport.answer(.tokenRevoked(reason: "a newer action token replaced this one (401 token_revoked)"))
        #expect(transport.sent.count == 1)
        #expect(try agent.list().first?.state == .needsApp)
    }

    @Test func aFailedCompletionIsAnnouncedAsTheStoreWroteIt() throws {
        let agent = try agent()
        let observer = RecordingObserver()
        agent.addObserver(observer)
        try agent.mirror(Fixtures.request())
        try agent.complete(Self.timer, completedAt: nil)
        #expect(agent.properties.pendingCompletions == 1)
        transport.answer(.failed(reason: "the platform refused the completion (422)"))
        let announced = try #require(observer.changed.last)
        #expect(announced.state == .saveFailed)
        #expect(announced.stored.timer.token == nil)
        #expect(try agent.list().first?.stored == announced.stored)
        #expect(observer.finished.map(\.outcome) == [.failed])
        #expect(agent.properties.pendingCompletions == 0)
        #expect(observer.published.last?.pendingCompletions == 0)
    }

    @Test func aRetryShowsTheAttemptTheStoreCounted() throws {
        let agent = try agent()
        let observer = RecordingObserver()
        agent.addObserver(observer)
        try agent.mirror(Fixtures.request())
        try agent.complete(Self.timer, completedAt: nil)
        transport.answer(.retry(retryAfter: .seconds(20), reason: "the platform is busy (503)"))
        #expect(observer.changed.last?.stored.completionAttempts == 1)
        #expect(observer.changed.last?.state == .saving)
        #expect(try agent.list().first?.stored.completionAttempts == 1)
        #expect(agent.properties.pendingCompletions == 1)
        // Later retries change nothing a caller sees.
        let announcements = observer.changed.count
        alarm.fire(advancing: clock)
        transport.answer(.retry(retryAfter: .seconds(20), reason: "the platform is busy (503)"))
        #expect(observer.changed.count == announcements)
        #expect(log.all.contains { $0.contains("will be tried again in 20 s") })
    }

    @Test func aClickWhoseTimerWasRemovedIsCountedUntilItsScopeIsPurged() throws {
        let agent = try agent()
        let observer = RecordingObserver()
        agent.addObserver(observer)
        try agent.mirror(Fixtures.request())
        try agent.complete(Self.timer, completedAt: nil)
        #expect(try agent.remove(Fixtures.timerID))
        // The click is still sent.
        #expect(agent.properties.pendingCompletions == 1)
        #expect(agent.properties.runningCount == 0)
        #expect(try agent.purge(apiOrigin: Fixtures.origin, userID: Fixtures.userID, familySubjectID: "") == 0)
        #expect(agent.properties.pendingCompletions == 0)
        #expect(observer.published.last?.pendingCompletions == 0)
    }

    @Test func pendingCompletionsAreCountedAtStartAndThenFromTheAgentsOwnWrites() throws {
        var agent: Agent? = try self.agent()
        try agent!.mirror(Fixtures.request())
        try agent!.complete(Self.timer, completedAt: nil)
        #expect(agent!.properties.pendingCompletions == 1)
        // A click written behind the agent's back is not read while it
        // runs: publishing reads nothing.
        let other = try SleepTimerStore(location: StoreLocation(directory: directory.stateDirectory), log: log, clock: clock)
        _ = try other.upsert(Fixtures.timer(2))
        _ = try other.recordCompletion(of: Fixtures.timerID(2), completedAt: Fixtures.now, now: Fixtures.now)
        try agent!.mirror(Fixtures.request { $0.revision = 4 })
        #expect(agent!.properties.pendingCompletions == 1)
        // A start counts the outbox as it is.
        agent = nil
        let restarted = try self.agent()
        #expect(restarted.properties.pendingCompletions == 2)
    }

    @Test func aDismissalOutlivesARestartOfTheAgent() throws {
        var agent: Agent? = try self.agent()
        try agent!.mirror(Fixtures.request())
        surface.report?(.closed(Self.timer, reason: 2))
        agent = nil
        let shownBefore = surface.shown.count
        let again = try self.agent()
        #expect(surface.shown.count == shownBefore)
        #expect(try again.list().first?.notification == .dismissed)
    }

    @Test func aRestartedAgentReplacesItsOwnNotification() throws {
        var agent: Agent? = try self.agent()
        try agent!.mirror(Fixtures.request())
        let given = UInt32(41)
        agent = nil
        _ = try self.agent()
        #expect(surface.shown.last?.2 == given)
    }

    @Test func openFromTheNotificationCarriesItsActivationToken() throws {
        let agent = try agent()
        try agent.mirror(Fixtures.request())
        surface.report?(.actionInvoked(Self.timer, .open, activationToken: "x11-startup-id"))
        #expect(opener.opened.first?.1 == "x11-startup-id")
        #expect(opener.opened.first?.0.hasPrefix("dreamsforlittles://") == true)
    }

    @Test func noLogLineCarriesTheToken() throws {
        let agent = try agent()
        try agent.mirror(Fixtures.request())
        _ = try agent.complete(Fixtures.timerID, completedAt: nil)
        transport.answer(.created(activityID: "act-1"))
        #expect(!log.all.isEmpty)
        #expect(!log.all.contains { $0.contains(Fixtures.canary) })
    }
}
