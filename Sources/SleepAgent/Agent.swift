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
    func completionFinished(_ id: TimerID, outcome: CompletionOutcome, activityID: String)
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

    private var observers: [AgentObserver] = []
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
        clock: any WallClock, log: any LogSink, loop: MainLoop, opener: DeepLinkOpener
    ) {
        self.store = store
        self.configuration = configuration
        self.policy = MirrorPolicy(allowedOrigins: configuration.allowedOrigins, timeZones: timeZones)
        self.timeZones = timeZones
        self.clock = clock
        self.log = log
        self.loop = loop
        self.opener = opener
        publishedProperties = AgentProperties(runningCount: 0, pendingCompletions: 0, notificationServer: "")
    }

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
        do {
            return try store.timers().map(view(of:))
        } catch {
            throw ServiceError(error)
        }
    }

    public var properties: AgentProperties {
        AgentProperties(
            runningCount: UInt32(clamping: (try? store.timers().count) ?? 0),
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
        do {
            _ = try store.recordCompletion(of: id, completedAt: completedAt, now: now)
        } catch {
            throw ServiceError(error)
        }
        log.log(.info, "Recorded the completion of timer \(id).")
        announceChange(of: id)
        publishProperties()
        return "queued"
    }

    public func open(_ idText: String) throws(ServiceError) {
        let id = try Self.timerID(idText, field: "timer_id")
        guard let stored = try storedTimer(id) else {
            throw ServiceError(.unknownTimer, "No Sleep timer with this id is mirrored on this desktop.")
        }
        opener.open(stored.timer.deepLink(base: configuration.deepLinkBase), activationToken: nil)
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
        guard let stored = try? store.timer(id) else { return }
        let view = view(of: stored)
        for observer in observers { observer.timerChanged(view) }
    }

    func announceRemoval(_ ids: [TimerID], reason: RemovalReason) {
        guard !ids.isEmpty else { return }
        for id in ids {
            for observer in observers { observer.timerRemoved(id, reason: reason) }
        }
        scheduleExpiry()
        publishProperties()
    }

    func announceCompletion(_ id: TimerID, outcome: CompletionOutcome, activityID: String) {
        for observer in observers { observer.completionFinished(id, outcome: outcome, activityID: activityID) }
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
        guard let timers = try? store.timers() else { return }
        let next = timers.filter { $0.completionState != .pending }.map(\.timer.tokenExpiresAt).min()
        guard let next else { return }
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
