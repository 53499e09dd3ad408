import AgentWorkflows
import SleepTimerCore
import SleepTimerStore
import SleepTimersAPI

/// Why a timer left the list, as TimerRemoved reports it.
public typealias RemovalReason = SleepTimers1.RemovalReason

/// How a Complete ended, as CompletionFinished reports it.
public typealias CompletionOutcome = SleepTimers1.CompletionOutcome

/// The agent's published properties.
public struct AgentProperties: Sendable, Equatable {
    public static let version = AppIdentity.version

    public var runningCount: UInt32
    public var pendingCompletions: UInt32
    public var notificationServer: String
    /// The origins Mirror accepts, as the configuration's list says them.
    public var allowedOrigins: [String]
}

/// Something that hears of the agent's changes: the D-Bus object, which
/// turns them into signals.
public protocol AgentObserver: AnyObject {
    func timerChanged(_ view: TimerView)
    func timerRemoved(_ id: TimerID, reason: RemovalReason)
    /// `sleptMinutes` is the length of the saved sleep, for outcome created.
    func completionFinished(_ id: TimerID, outcome: CompletionOutcome, activityID: String, sleptMinutes: Int64?)
    func propertiesChanged(_ properties: AgentProperties, previous: AgentProperties)
    /// A running timer's token expires at `expiresAt`, soon: time to renew.
    func tokenExpiring(_ id: TimerID, expiresAt: Instant)
}

extension AgentObserver {
    public func tokenExpiring(_ id: TimerID, expiresAt: Instant) {}
}

/// What the agent does, independent of how it is asked: every call of the
/// D-Bus API lands here, and every change goes to the store first and to
/// the observers after.
///
/// The decisions are made by the pure workflows (the notification machine, the
/// completion machine, the timers' lifecycle and the schedule of wake-ups);
/// the agent carries them out against the store, which is its alone, the
/// loop, and two ports: the notification surface and the completion
/// transport.
public final class Agent {
    let store: SleepTimerStore
    public internal(set) var configuration: Configuration
    var mirrorRule: MirrorRule
    let clock: any WallClock
    let log: any LogSink
    let alarm: any WakeAlarm
    let opener: any LinkOpener
    let crashPoints: CrashPoints

    var observers: [AgentObserver] = []
    /// Every mirrored timer as the store holds it, read once at start and
    /// again, row by row, after each change: decisions and List read this
    /// instead of the file.
    var timers: [TimerID: StoredTimer] = [:]
    /// How many completions the outbox holds pending: counted once at
    /// start, then moved by what each write to the outbox returns (a click
    /// recorded, an entry finished, failed or purged), so that publishing
    /// PendingCompletions reads nothing. nil while the count could not be
    /// read; it is read again when next published.
    var pendingCompletionCount: Int?
    /// List's answer, kept until something changes.
    private var cachedList: [TimerView]?
    /// Counts the changes of List's answer, so that a caller can keep what
    /// it built from the answer (the marshalled reply) until it moves.
    public private(set) var listGeneration = 0
    private var publishedProperties: AgentProperties

    // The machines that ask for the loop at a moment: after any event that
    // changes one, its moment goes on the one schedule here, so that no
    // event's handler has to remember to (Agent+Schedule).
    var notifications: NotificationMachine { didSet { setWake(.notifications, at: notifications.wakeAt) } }
    /// Reads the desktop's time format; called once, when a timer is first
    /// held (see `readTimeFormatWhenNeeded`).
    var pendingTimeFormat: (() -> TimeFormat)?
    var surface: NotificationSurface?
    var completions: CompletionMachine { didSet { setWake(.completions, at: completions.wakeAt) } }
    var transport: CompletionTransport?
    weak var panel: PanelSurface?
    var schedule = ScheduleMachine<AgentWake>()
    var lifecycle: TimerLifecycleMachine { didSet { setWake(.tokenExpiry, at: lifecycle.wakeAt) } }
    let limits: TimerLimitRule
    var backgroundLaunch: BackgroundLaunchMachine { didSet { setWake(.background, at: backgroundLaunch.wakeAt) } }
    /// Opens allowed to each caller (see Agent+Opens).
    var openLimit = CallerRateLimitMachine(settings: .opens)
    /// When a caller's refused call is logged (see Agent+Opens).
    var refusalLog = LogBudgetMachine<Instant>(settings: .refusals)
    /// What the desktops' searches find (see Agent+Search); its words are
    /// the language's the agent started in.
    let search = SleepSearchRule(searchWords: SleepSearchText.searchWords)
    /// Starts the desktop app in the background (its `background` action);
    /// nil: nothing can (the tests of the agent alone).
    public var launchAppInBackground: (() -> Void)?

    public init(
        store: SleepTimerStore, configuration: Configuration, timeZones: any TimeZoneResolving, base64: any Base64Decoding,
        timeFormat: TimeFormat, clock: any WallClock, log: any LogSink, alarm: any WakeAlarm, opener: any LinkOpener,
        crashPoints: CrashPoints = .disarmed, completions: CompletionMachine = CompletionMachine(),
        limits: TimerLimitRule = TimerLimitRule()
    ) {
        self.limits = limits
        backgroundLaunch = BackgroundLaunchMachine(settings: BackgroundLaunchMachine.Settings(enabled: configuration.appInBackground))
        lifecycle = TimerLifecycleMachine(settings: TimerLifecycleMachine.Settings(
            renewalLead: configuration.renewalLead, longestSleep: MirrorRule.longestSleep))
        self.store = store
        self.configuration = configuration
        var mirrorRule = MirrorRule(allowedOrigins: configuration.allowedOrigins, timeZones: timeZones, base64: base64)
        mirrorRule.maximumTokenLifetime = configuration.maximumTokenLifetime
        self.mirrorRule = mirrorRule
        self.clock = clock
        self.log = log
        self.alarm = alarm
        self.opener = opener
        self.crashPoints = crashPoints
        self.completions = completions
        notifications = NotificationMachine(
            settings: NotificationMachine.Settings(liveElapsed: configuration.liveElapsed, timeFormat: timeFormat),
            timeZones: timeZones, records: Self.notificationRecords(store, log: log))
        publishedProperties = AgentProperties(runningCount: 0, pendingCompletions: 0, notificationServer: "", allowedOrigins: [])
        do {
            for stored in try store.timers() { timers[stored.timer.id] = stored }
        } catch {
            log.log(.error, "Could not read the stored timers: \(error)")
        }
        countPendingCompletions()
    }

    /// A pending wake-up goes with the agent: the alarm may outlive it.
    deinit { alarm.cancel() }

    public func addObserver(_ observer: AgentObserver) { observers.append(observer) }

    /// Drops what expired while the agent was not running, starts the
    /// ports, and sends what the outbox holds.
    public func start(surface: NotificationSurface?, transport: CompletionTransport?) {
        self.surface = surface
        self.transport = transport
        applyLifecycle()
        launchForRestoredTimers()
        publishProperties()
        surface?.start { [weak self] event in self?.surfaceReported(event) }
        lookAtOutbox()
    }

    // MARK: Reading

    func view(of stored: StoredTimer) -> TimerView {
        TimerView(
            stored: stored, now: clock.now(), deepLinkBase: configuration.deepLinkBase,
            notification: notifications.status(of: stored.timer.id))
    }

    public func list() throws(ServiceError) -> [TimerView] {
        if let cachedList { return cachedList }
        let views = timers.values.sorted(by: TimerOrderRule.precedes).map(view(of:))
        cachedList = views
        return views
    }

    private func invalidateList() {
        cachedList = nil
        listGeneration &+= 1
    }

    public var properties: AgentProperties {
        AgentProperties(
            runningCount: UInt32(clamping: timers.count),
            pendingCompletions: UInt32(clamping: pendingCompletionCount ?? 0),
            notificationServer: notifications.server?.displayName ?? "",
            allowedOrigins: mirrorRule.allowedOrigins.origins.map(\.description))
    }

    /// Reads the outbox's pending count from the store: at start, and
    /// again only after that read failed.
    private func countPendingCompletions() {
        do {
            pendingCompletionCount = try store.pendingCompletionCount()
        } catch {
            log.log(.error, "Could not count the pending completions: \(error)")
        }
    }

    /// A write to the outbox added (or, negative, took away) this many
    /// pending entries.
    func pendingCompletionsChanged(by change: Int) {
        pendingCompletionCount = pendingCompletionCount.map { $0 + change }
    }

    // MARK: Announcing

    /// Reads a changed timer back from the store and tells everyone who
    /// acts on it.
    func announceChange(of id: TimerID) {
        invalidateList()
        let stored: StoredTimer?
        do {
            stored = try store.timer(id)
        } catch {
            log.log(.error, "Could not read timer \(id) back from the store: \(error)")
            return
        }
        guard let stored else {
            timers[id] = nil
            return
        }
        announceChange(stored)
    }

    /// Tells everyone who acts on a timer of its change, as a write to the
    /// store just returned it: the observers and the notification machine.
    func announceChange(_ stored: StoredTimer) {
        invalidateList()
        timers[stored.timer.id] = stored
        let view = view(of: stored)
        for observer in observers { observer.timerChanged(view) }
        notificationsTimerChanged(stored, now: clock.now())
    }

    /// What List says of a timer changed, but not the timer itself.
    func announceStatus(of id: TimerID) {
        invalidateList()
        guard let stored = timers[id] else { return }
        let view = view(of: stored)
        for observer in observers { observer.timerChanged(view) }
    }

    func announceRemoval(_ ids: [TimerID], reason: RemovalReason) {
        guard !ids.isEmpty else { return }
        crashPoints.reach(.afterRemovalCommit, log: log)
        invalidateList()
        for id in ids {
            timers[id] = nil
            backgroundLaunch.removed(id)
            for observer in observers { observer.timerRemoved(id, reason: reason) }
            notificationsTimerRemoved(id)
        }
        applyLifecycle()
        publishProperties()
    }

    func announceCompletion(_ id: TimerID, outcome: CompletionOutcome, activityID: String, sleptMinutes: Int64?) {
        for observer in observers {
            observer.completionFinished(id, outcome: outcome, activityID: activityID, sleptMinutes: sleptMinutes)
        }
    }

    /// Sends PropertiesChanged when a property differs from what was last
    /// published.
    func publishProperties() {
        if pendingCompletionCount == nil { countPendingCompletions() }
        let current = properties
        guard current != publishedProperties else { return }
        let previous = publishedProperties
        publishedProperties = current
        for observer in observers { observer.propertiesChanged(current, previous: previous) }
    }

    private static func notificationRecords(_ store: SleepTimerStore, log: any LogSink) -> [TimerID: NotificationRecord] {
        do {
            return try store.notifications()
        } catch {
            log.log(.error, "Could not read the notifications shown before: \(error)")
            return [:]
        }
    }
}

@available(*, unavailable, message: "The agent is confined to its main loop's thread.")
extension Agent: Sendable {}
