import EventLoop
import SleepTimerCore
import SleepTimerStore

/// Why a timer left the list, as TimerRemoved reports it.
public enum RemovalReason: String, Sendable {
    case completed
    case completedElsewhere = "completed-elsewhere"
    case removed
    case reconciled
    case purged
    case expired
}

/// How a Complete ended, as CompletionFinished reports it.
public enum CompletionOutcome: String, Sendable {
    case created
    case alreadyCompleted = "already-completed"
    case failed
}

/// The agent's published properties.
public struct AgentProperties: Sendable, Equatable {
    public static let version = "0.1.0"

    public var runningCount: UInt32
    public var pendingCompletions: UInt32
    public var notificationServer: String
}

/// Something that reacts to the agent's changes: the D-Bus object, which
/// turns them into signals, and the notifications.
public protocol AgentObserver: AnyObject {
    func timerChanged(_ view: TimerView)
    func timerRemoved(_ id: TimerID, reason: RemovalReason)
    /// `sleptMinutes` is the length of the saved sleep, for outcome created.
    func completionFinished(_ id: TimerID, outcome: CompletionOutcome, activityID: String, sleptMinutes: Int64?)
    func propertiesChanged(_ properties: AgentProperties, previous: AgentProperties)
}

/// What the agent does, independent of how it is asked: every call of the
/// D-Bus API lands here, and every change goes to the store first and to
/// the observers after.
public final class Agent {
    public let store: SleepTimerStore
    public let configuration: Configuration
    let policy: MirrorPolicy
    let timeZones: any TimeZoneResolving
    let clock: any WallClock
    let log: any LogSink
    let loop: MainLoop
    let opener: DeepLinkOpener
    public let crashPoints: CrashPoints

    private var observers: [AgentObserver] = []
    /// List's answer, kept until something changes: other apps may ask often,
    /// and reading and checking every row each time would be waste.
    private var cachedList: [TimerView]?
    private var expiryTimer: MainLoop.Source?
    private var publishedProperties: AgentProperties

    /// The notification state of a timer; the notifications set this.
    public var notificationStatus: (TimerID) -> NotificationStatus = { _ in .unavailable }
    /// The notification server's name; the notifications set this.
    public var notificationServer = "" {
        didSet { publishProperties() }
    }

    public init(
        store: SleepTimerStore, configuration: Configuration, timeZones: any TimeZoneResolving,
        clock: any WallClock, log: any LogSink, loop: MainLoop, opener: DeepLinkOpener,
        crashPoints: CrashPoints = .disarmed
    ) {
        self.store = store
        self.configuration = configuration
        self.policy = MirrorPolicy(allowedOrigins: configuration.allowedOrigins, timeZones: timeZones)
        self.timeZones = timeZones
        self.clock = clock
        self.log = log
        self.loop = loop
        self.opener = opener
        self.crashPoints = crashPoints
        publishedProperties = AgentProperties(runningCount: 0, pendingCompletions: 0, notificationServer: "")
    }

    /// A pending expiry wake-up goes with the agent: the loop may outlive
    /// it, and its callback holds a reference to it.
    deinit { expiryTimer?.cancel() }

    public func addObserver(_ observer: AgentObserver) { observers.append(observer) }

    /// Drops what expired while the agent was not running, then serves.
    public func start() {
        dropExpired()
        publishProperties()
    }

    // MARK: Reading

    public func view(of stored: StoredTimer) -> TimerView {
        TimerView(
            stored: stored, now: clock.now(), deepLinkBase: configuration.deepLinkBase,
            notification: notificationStatus(stored.timer.id))
    }

    public func list() throws(ServiceError) -> [TimerView] {
        if let cachedList { return cachedList }
        do {
            let views = try store.timers().map(view(of:))
            cachedList = views
            return views
        } catch {
            throw ServiceError(error)
        }
    }

    public var properties: AgentProperties {
        AgentProperties(
            runningCount: UInt32(clamping: (try? store.timerCount()) ?? 0),
            pendingCompletions: UInt32(clamping: (try? store.pendingCompletionCount()) ?? 0),
            notificationServer: notificationServer)
    }

    // MARK: Changing

    public func mirror(_ request: MirrorRequest) throws(ServiceError) {
        let timer: MirroredTimer
        do {
            timer = try policy.validate(request, now: clock.now())
        } catch {
            throw ServiceError(error)
        }
        let outcome: UpsertOutcome
        do {
            outcome = try store.upsert(timer)
        } catch {
            throw ServiceError(error)
        }
        switch outcome {
        case .ignoredStale(let stored):
            log.log(.info, "Ignored a Mirror of timer \(timer.id) with revision \(timer.revision); revision \(stored) is stored.")
        case .inserted, .updated:
            log.log(.info, "Mirrored timer \(timer.id) (\(outcome == .inserted ? "new" : "updated"), revision \(timer.revision)).")
            announceChange(of: timer.id)
            scheduleExpiry()
            publishProperties()
        }
    }

    public func remove(_ idText: String) throws(ServiceError) -> Bool {
        let id = try Self.timerID(idText, field: "timer_id")
        let removed: Bool
        do {
            removed = try store.remove(id)
        } catch {
            throw ServiceError(error)
        }
        if removed { announceRemoval([id], reason: .removed) }
        return removed
    }

    public func reconcile(apiOrigin: String, userID: String, familySubjectID: String, running: [String])
        throws(ServiceError) -> UInt32
    {
        let scope = TimerScope(
            apiOrigin: try Self.origin(apiOrigin), userID: try Self.identifier(UserID.self, userID, field: "user_id"),
            familySubjectID: try Self.identifier(FamilySubjectID.self, familySubjectID, field: "family_subject_id"))
        var keep: Set<TimerID> = []
        for text in running { keep.insert(try Self.timerID(text, field: "running_timer_ids")) }
        let removed: [TimerID]
        do {
            removed = try store.reconcile(scope: scope, keeping: keep)
        } catch {
            throw ServiceError(error)
        }
        announceRemoval(removed, reason: .reconciled)
        return UInt32(clamping: removed.count)
    }

    public func purge(apiOrigin: String, userID: String, familySubjectID: String) throws(ServiceError) -> UInt32 {
        let origin = try Self.origin(apiOrigin)
        let user = try Self.identifier(UserID.self, userID, field: "user_id")
        let family = familySubjectID.isEmpty
            ? nil : try Self.identifier(FamilySubjectID.self, familySubjectID, field: "family_subject_id")
        let removed: [TimerID]
        do {
            removed = try store.purge(apiOrigin: origin, userID: user, familySubjectID: family)
        } catch {
            throw ServiceError(error)
        }
        log.log(.info, "Purged \(removed.count) timer(s) of a signed-out scope.")
        announceRemoval(removed, reason: .purged)
        return UInt32(clamping: removed.count)
    }

    /// How far ahead of the agent's clock a completion time may be.
    static let completionClockSkew = Milliseconds.minute

    /// Records the completion durably, then answers; sending is the
    /// completion sender's job.
    public func complete(_ idText: String, completedAtMilliseconds: Int64) throws(ServiceError) -> String {
        let id = try Self.timerID(idText, field: "timer_id")
        let now = clock.now()
        guard let stored = try storedTimer(id) else {
            throw ServiceError(.unknownTimer, "No Sleep timer with this id is mirrored on this desktop.")
        }
        let completedAt = completedAtMilliseconds == 0 ? now : Instant(millisecondsSince1970: completedAtMilliseconds)
        guard completedAtMilliseconds >= 0 else {
            throw ServiceError(.invalidArgument, "completed_at_ms must be 0 (now) or a time in milliseconds since 1970.")
        }
        guard completedAt >= stored.timer.startedAt else {
            throw ServiceError(.invalidArgument, "completed_at_ms is before the timer started.")
        }
        guard completedAt.milliseconds(since: now) <= Self.completionClockSkew else {
            throw ServiceError(.invalidArgument, "completed_at_ms is in the future.")
        }
        if crashPoints.isArmed(.beforeOutboxCommit) {
            store.beforeCommit = { [crashPoints, log] in crashPoints.reach(.beforeOutboxCommit, log: log) }
        }
        defer { store.beforeCommit = nil }
        do {
            _ = try store.recordCompletion(of: id, completedAt: completedAt, now: now)
        } catch {
            throw ServiceError(error)
        }
        log.log(.info, "Recorded the completion of timer \(id).")
        crashPoints.reach(.afterOutboxCommit, log: log)
        announceChange(of: id)
        publishProperties()
        return "queued"
    }

    public func open(_ idText: String) throws(ServiceError) {
        let id = try Self.timerID(idText, field: "timer_id")
        guard try storedTimer(id) != nil else {
            throw ServiceError(.unknownTimer, "No Sleep timer with this id is mirrored on this desktop.")
        }
        open(id, activationToken: nil)
    }

    /// Opens the app at a timer; `activationToken` comes from the
    /// notification server when the user clicked a notification.
    public func open(_ id: TimerID, activationToken: String?) {
        guard let stored = try? store.timer(id) else { return }
        opener.open(stored.timer.deepLink(base: configuration.deepLinkBase), activationToken: activationToken)
    }

    /// Whether a recorded completion has already failed an attempt and waits
    /// to be tried again.
    public func completionIsWaiting(_ id: TimerID) -> Bool {
        ((try? store.completion(of: id))?.attempts ?? 0) > 0
    }

    /// The notifications changed what List says about a timer.
    public func notificationStatusChanged(_ id: TimerID) {
        announceChange(of: id)
    }

    // MARK: Outcomes of completions

    /// The platform created the activity (now, or before a lost reply): the
    /// timer, its token and its outbox entry go in one transaction.
    public func completionCreated(_ record: CompletionRecord, activityID: String) throws(ServiceError) {
        let startedAt = try storedTimer(record.timerID)?.timer.startedAt
        try finish(record.timerID)
        log.log(.info, "Timer \(record.timerID) saved as activity \(activityID).")
        let minutes = startedAt.map { max(0, record.completedAt.milliseconds(since: $0)) / Milliseconds.minute }
        announceCompletion(record.timerID, outcome: .created, activityID: activityID, sleptMinutes: minutes)
        announceRemoval([record.timerID], reason: .completed)
    }

    /// The timer was finished in the app or on another device.
    public func completionFoundDone(_ record: CompletionRecord) throws(ServiceError) {
        try finish(record.timerID)
        log.log(.info, "Timer \(record.timerID) was already finished elsewhere; nothing more to send.")
        announceCompletion(record.timerID, outcome: .alreadyCompleted, activityID: "", sleptMinutes: nil)
        announceRemoval([record.timerID], reason: .completedElsewhere)
    }

    /// The completion cannot succeed from the desktop: shown as needs-app
    /// or save-failed, never retried; the token and request body go.
    public func completionFailed(_ record: CompletionRecord, state: CompletionState, reason: String) throws(ServiceError) {
        do {
            try store.failCompletion(of: record.timerID, state: state, lastError: reason)
        } catch {
            throw ServiceError(error)
        }
        log.log(.warning, "The completion of timer \(record.timerID) failed: \(reason).")
        announceCompletion(record.timerID, outcome: .failed, activityID: "", sleptMinutes: nil)
        announceChange(of: record.timerID)
        scheduleExpiry()
        publishProperties()
    }

    /// The attempt may succeed later: count it and keep the entry.
    public func completionWillRetry(_ record: CompletionRecord, at next: Instant, reason: String) throws(ServiceError) {
        do {
            try store.scheduleRetry(of: record.timerID, attempts: record.attempts + 1, nextAttemptAt: next, lastError: reason)
        } catch {
            throw ServiceError(error)
        }
        log.log(.notice, "The completion of timer \(record.timerID) will be tried again in \((max(0, next.milliseconds(since: clock.now())) + 500) / 1000) s: \(reason).")
        if record.attempts == 0 { announceChange(of: record.timerID) }
    }

    private func finish(_ id: TimerID) throws(ServiceError) {
        do {
            try store.finishCompletion(of: id)
        } catch {
            throw ServiceError(error)
        }
    }

    // MARK: Helpers

    func storedTimer(_ id: TimerID) throws(ServiceError) -> StoredTimer? {
        do {
            return try store.timer(id)
        } catch {
            throw ServiceError(error)
        }
    }

    /// Tells the observers about a timer's current state.
    func announceChange(of id: TimerID) {
        cachedList = nil
        guard let stored = try? store.timer(id) else { return }
        let view = view(of: stored)
        for observer in observers { observer.timerChanged(view) }
    }

    func announceRemoval(_ ids: [TimerID], reason: RemovalReason) {
        guard !ids.isEmpty else { return }
        cachedList = nil
        for id in ids {
            for observer in observers { observer.timerRemoved(id, reason: reason) }
        }
        scheduleExpiry()
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
        let current = properties
        guard current != publishedProperties else { return }
        let previous = publishedProperties
        publishedProperties = current
        for observer in observers { observer.propertiesChanged(current, previous: previous) }
    }

    /// Removes mirrors whose token has expired, and sets one timer for the
    /// next expiry: the loop wakes for that moment and no other.
    func dropExpired() {
        do {
            let expired = try store.removeExpired(now: clock.now())
            if !expired.isEmpty { log.log(.info, "Dropped \(expired.count) timer(s) whose action token expired.") }
            announceRemoval(expired, reason: .expired)
        } catch {
            log.log(.error, "Could not drop expired timers: \(error)")
        }
        scheduleExpiry()
    }

    func scheduleExpiry() {
        expiryTimer?.cancel()
        expiryTimer = nil
        guard let next = try? store.nextTokenExpiry() else { return }
        let wait = max(0, min(next.milliseconds(since: clock.now()), Int64(UInt32.max / 2)))
        expiryTimer = loop.after(milliseconds: UInt32(wait) + 1) { [weak self] in
            self?.expiryTimer = nil
            self?.dropExpired()
            return .remove
        }
    }

    static func timerID(_ text: String, field: String) throws(ServiceError) -> TimerID {
        try identifier(TimerID.self, text, field: field)
    }

    static func identifier<Kind>(_ type: Identifier<Kind>.Type, _ text: String, field: String)
        throws(ServiceError) -> Identifier<Kind>
    {
        guard let id = Identifier<Kind>(text) else {
            throw ServiceError(.invalidArgument, "\(field) must be a UUID such as 123e4567-e89b-12d3-a456-426614174000.")
        }
        return id
    }

    static func origin(_ text: String) throws(ServiceError) -> APIOrigin {
        do {
            return try APIOrigin(parsing: text)
        } catch {
            throw ServiceError(.originNotAllowed, "api_origin \(error.explanation).")
        }
    }
}
