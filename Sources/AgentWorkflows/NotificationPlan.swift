import SleepTimerCore

/// The notification server on the bus, as far as the plan needs it.
public struct NotificationServer: Sendable, Equatable {
    /// The owner's unique name: it changes when the server restarts, and
    /// notification ids belong to it.
    public let owner: String
    /// "name version" from GetServerInformation.
    public let displayName: String
    public let traits: NotificationServerTraits

    public init(owner: String, displayName: String, traits: NotificationServerTraits) {
        self.owner = owner
        self.displayName = displayName
        self.traits = traits
    }
}

/// Whether the desktop shows a notification for a timer.
public enum NotificationStatus: String, Sendable {
    case shown
    /// The user closed it; it stays away until the timer's state changes.
    case dismissed
    /// No notification server, or none shown for this timer.
    case unavailable
}

/// What the desktop shows for each timer, decided as values: one
/// notification per mirrored timer, kept in step with its state, the
/// elapsed time moved on at the minute boundaries of its start (where the
/// server takes in-place updates quietly), a user's dismissal respected
/// until the timer changes, a "saved" farewell after a completion, and
/// everything posted again for a new server. An update that is no news goes
/// with low urgency where the server would pop it up again otherwise, and
/// no timer's text is sent twice within a moment (Plasma refuses that).
///
/// The plan knows notifications by their timer's id; the shell keeps one
/// libnotify object per id, carries out the actions, and reports what the
/// server did (shown, closed, an action) as events.
public struct NotificationPlan: Sendable {
    public struct Settings: Sendable, Equatable {
        public var liveElapsed: LiveElapsedMode
        public var timeFormat: TimeFormat

        public init(liveElapsed: LiveElapsedMode, timeFormat: TimeFormat) {
            self.liveElapsed = liveElapsed
            self.timeFormat = timeFormat
        }
    }

    public enum Event: Sendable, Equatable {
        /// A server took the name (or none has it now); `timers` are every
        /// mirrored timer.
        case serverChanged(NotificationServer?, timers: [StoredTimer], now: Instant)
        case timerChanged(StoredTimer, now: Instant)
        case timerRemoved(TimerID)
        /// The platform created the activity; the sleep lasted `sleptMinutes`.
        case saved(TimerID, sleptMinutes: Int64, now: Instant)
        /// The server took the notification under this id.
        case shown(TimerID, notificationID: UInt32, now: Instant)
        case showFailed(TimerID, reason: String, now: Instant)
        /// The server closed the notification (its object is gone), for
        /// one of the NotificationCloseReason.
        case closed(TimerID, reason: UInt32, now: Instant)
        /// The user clicked an action; the activation token comes from the
        /// server, for the app to take the focus.
        case actionInvoked(TimerID, NotificationAction, activationToken: String?)
        /// The moment `wakeAt` named has come.
        case wake(now: Instant)
        /// The clock was set or the machine woke: every text is made again
        /// for the time it is now.
        case clockChanged(now: Instant)
        /// The configuration was reloaded: every text is made again with
        /// these settings.
        case settingsChanged(Settings, now: Instant)
    }

    public enum Action: Sendable, Equatable {
        /// Post, or update in place once shown. A new notification replaces
        /// `replacing` when it is not 0 (the one a restarted agent showed).
        case show(TimerID, NotificationContent, replacing: UInt32)
        /// Close it on the server and forget it.
        case close(TimerID)
        /// Forget it without closing (the server failed to take it).
        case drop(TimerID)
        /// Forget every notification without closing: their ids belong to a
        /// server that is gone.
        case dropAll
        /// Keep this durably, so that a restarted agent replaces its own
        /// notification and honours a dismissal.
        case saveRecord(TimerID, NotificationRecord)
        case complete(TimerID)
        case open(TimerID, activationToken: String?)
        /// What List says about this timer's notification changed.
        case statusChanged(TimerID)
        case log(LogPriority, String)
    }

    /// A notification on screen for a running (or saving, or failed) timer.
    struct Entry: Sendable {
        var timer: StoredTimer
        var content: NotificationContent
        var phase: TimerPhase
        /// The state it shows, as a dismissal is recorded against it.
        var stateKey: String
        /// When its text next changes, while it is updated in place.
        var refreshAt: Instant?
        /// Set when the user clicked an action: some servers close a
        /// notification after any action (xfce4-notifyd ignores
        /// "resident"), and that close is not a dismissal.
        var actionInvoked = false
    }

    /// A "Sleep saved" notification, kept until it closes by itself or,
    /// on a server that ignores the timeout, until `closeAt`.
    struct Farewell: Sendable {
        var closeAt: Instant?
    }

    /// How long after a server failed to take a notification it is offered
    /// again: a passing stall must not hide a sleep until it next changes.
    public static let retryAfterFailure: Duration = .seconds(30)

    /// How long the same summary and body are not sent again for a timer:
    /// Plasma refuses a notification identical to one it took less than a
    /// second before (ExcessNotificationGeneration), by the moments the two
    /// reached it; the second more is for the way there (the notifications'
    /// thread, the bus), which can be longer for the first than the second.
    public static let repeatInterval: Duration = .seconds(2)

    public private(set) var settings: Settings
    private let timeZones: any TimeZoneResolving
    public private(set) var server: NotificationServer?
    private var entries: [TimerID: Entry] = [:]
    private var farewells: [TimerID: Farewell] = [:]
    /// Timers whose notification the server failed to take (it timed out,
    /// or answered with an error), to be shown again at the moment named.
    private var retries: [TimerID: (timer: StoredTimer, at: Instant)] = [:]
    private var records: [TimerID: NotificationRecord]
    /// The text last sent for each timer, and when.
    private var lastSent: [TimerID: (summary: String, body: String, at: Instant)] = [:]
    /// Shows held back until `at`, since they would repeat the text sent
    /// less than `repeatInterval` before.
    private var held: [TimerID: (content: NotificationContent, replacing: UInt32, at: Instant)] = [:]

    /// `records` are what the store keeps of earlier notifications.
    public init(settings: Settings, timeZones: any TimeZoneResolving, records: [TimerID: NotificationRecord] = [:]) {
        self.settings = settings
        self.timeZones = timeZones
        self.records = records
    }

    /// The key of what a timer's notification shows; a dismissal holds
    /// until it changes. Stored: its form never changes.
    public static func stateKey(_ timer: StoredTimer, now: Instant) -> String {
        "\(timer.state.rawValue):\(timer.timer.revision):\(timer.canComplete(at: now))"
    }

    public func status(of id: TimerID) -> NotificationStatus {
        guard server != nil else { return .unavailable }
        if entries[id] != nil { return .shown }
        if records[id]?.dismissedInState != nil { return .dismissed }
        return .unavailable
    }

    /// When the plan next needs the loop: a minute boundary of a shown
    /// running timer, or a farewell to close. nil when nothing waits.
    public var wakeAt: Instant? {
        let moments = [
            entries.values.compactMap(\.refreshAt).min(), farewells.values.compactMap(\.closeAt).min(),
            retries.values.map(\.at).min(), held.values.map(\.at).min(),
        ]
        return moments.compactMap { $0 }.min()
    }

    public mutating func handle(_ event: Event) -> [Action] {
        var actions: [Action] = []
        switch event {
        case .serverChanged(let new, let timers, let now):
            serverChanged(to: new, timers: timers, now: now, into: &actions)
        case .timerChanged(let timer, let now):
            retries[timer.timer.id] = nil
            refresh(timer, now: now, into: &actions)
        case .timerRemoved(let id):
            records[id] = nil
            retries[id] = nil
            held[id] = nil
            lastSent[id] = nil
            if entries.removeValue(forKey: id) != nil { actions.append(.close(id)) }
        case .saved(let id, let minutes, let now):
            sayFarewell(id, sleptMinutes: minutes, now: now, into: &actions)
        case .shown(let id, let notificationID, let now):
            shown(id, notificationID: notificationID, now: now, into: &actions)
        case .showFailed(let id, let reason, let now):
            showFailed(id, reason: reason, now: now, into: &actions)
        case .closed(let id, let reason, let now):
            closed(id, reason: reason, now: now, into: &actions)
        case .actionInvoked(let id, let action, let activationToken):
            guard entries[id] != nil else { break }
            entries[id]?.actionInvoked = true
            actions.append(action == .complete ? .complete(id) : .open(id, activationToken: activationToken))
        case .wake(let now):
            wake(now: now, into: &actions)
        case .clockChanged(let now):
            wake(now: now, everything: true, into: &actions)
        case .settingsChanged(let new, let now):
            settings = new
            wake(now: now, everything: true, into: &actions)
        }
        return actions
    }

    // MARK: Transitions

    private mutating func serverChanged(
        to new: NotificationServer?, timers: [StoredTimer], now: Instant, into actions: inout [Action]
    ) {
        if let new, let old = server, new.owner == old.owner {
            // The same server, able to do more or less now (Do Not Disturb
            // began or ended): its ids still hold, so every notification is
            // updated in place, and what the server put away is shown again.
            server = new
            for timer in timers {
                retries[timer.timer.id] = nil
                refresh(timer, now: now, into: &actions)
            }
            return
        }
        // Ids belong to the server that gave them out: a new server (or
        // none) makes every notification held meaningless.
        actions.append(.dropAll)
        entries.removeAll()
        farewells.removeAll()
        retries.removeAll()
        held.removeAll()
        server = new
        for timer in timers {
            if new != nil { refresh(timer, now: now, announce: false, into: &actions) }
            actions.append(.statusChanged(timer.timer.id))
        }
    }

    /// Shows `timer` as it is now: posts, updates in place, or keeps away
    /// when the user dismissed this very state.
    private mutating func refresh(
        _ timer: StoredTimer, now: Instant, announce: Bool = true, into actions: inout [Action]
    ) {
        guard let server, let rules = timeZones.rules(for: timer.timer.timeZone) else { return }
        let id = timer.timer.id
        let key = Self.stateKey(timer, now: now)
        if let dismissed = records[id]?.dismissedInState {
            if dismissed == key { return }
            // The state moved on since the dismissal: show it again.
            let cleared = NotificationRecord(notificationID: 0, dismissedInState: nil)
            records[id] = cleared
            actions.append(.saveRecord(id, cleared))
        }
        let live = server.traits.updatesElapsedTime(settings.liveElapsed)
        let phase = TimerPhase(of: timer, at: now)
        var content = NotificationContent.make(
            babyName: timer.timer.babyName, phase: phase, startedAt: timer.timer.startedAt,
            now: now, rules: rules, timeFormat: settings.timeFormat, server: server.traits, liveElapsed: live)
        let refreshAt = phase.isRunning && live
            ? TimerPhase.nextMinuteBoundary(after: now, startedAt: timer.timer.startedAt) : nil
        if var entry = entries[id] {
            let news = Self.isNews(phase, after: entry.phase)
            if server.traits.bannersUnlessLowUrgency { content.urgency = news ? .normal : .low }
            entry.timer = timer
            entry.phase = phase
            entry.stateKey = key
            entry.refreshAt = refreshAt
            if !entry.content.sameApartFromUrgency(content) {
                update(id, content, held: entry.content.urgency, news: news, now: now, into: &actions)
                entry.content = content
            }
            entries[id] = entry
            return
        }
        // After a restart of the agent alone, replace what it showed
        // before instead of adding a second notification.
        var replacing: UInt32 = 0
        if let record = records[id], record.serverOwner == server.owner, record.dismissedInState == nil {
            replacing = record.notificationID
        }
        farewells[id] = nil
        entries[id] = Entry(timer: timer, content: content, phase: phase, stateKey: key, refreshAt: refreshAt)
        post(id, content, replacing: replacing, now: now, into: &actions)
        if announce { actions.append(.statusChanged(id)) }
    }

    /// Whether an update in place from `old` to `new` is news a parent
    /// should see pop up again: only a sleep that cannot be saved from the
    /// desktop, which asks the parent to finish it in the app. Saving, a
    /// renewed or lapsed token, a new name or minute are not.
    public static func isNews(_ new: TimerPhase, after old: TimerPhase) -> Bool {
        new == .failed && old != .failed
    }

    /// Updates a shown notification so that it pops up again only as news.
    /// Where a replaced notification pops up unless the urgency it held was
    /// low, and a new one unless its own is (GNOME 46 and later), a replace
    /// that would pop up for no news, or stay quiet for news, is sent as a
    /// new notification instead, the old one closed.
    private mutating func update(
        _ id: TimerID, _ content: NotificationContent, held: NotificationUrgency, news: Bool, now: Instant,
        into actions: inout [Action]
    ) {
        if server?.traits.bannersUnlessLowUrgency == true && (held == .low) == news {
            actions.append(.close(id))
        }
        post(id, content, replacing: 0, now: now, into: &actions)
    }

    /// Sends a show, or holds it back until `repeatInterval` has passed since
    /// the same text was sent for this timer: a notification identical to
    /// one a moment before tells the parent nothing, and Plasma refuses it.
    private mutating func post(
        _ id: TimerID, _ content: NotificationContent, replacing: UInt32, now: Instant, into actions: inout [Action]
    ) {
        if let last = lastSent[id], last.summary == content.summary, last.body == content.body {
            let free = last.at + Self.repeatInterval
            if now < free {
                held[id] = (content, replacing, free)
                return
            }
        }
        held[id] = nil
        lastSent[id] = (content.summary, content.body, now)
        actions.append(.show(id, content, replacing: replacing))
    }

    private mutating func shown(_ id: TimerID, notificationID: UInt32, now: Instant, into actions: inout [Action]) {
        if entries[id] != nil {
            // Written only when it changed: an update in place keeps its
            // id, and a durable write a minute per timer would be waste.
            let record = NotificationRecord(notificationID: notificationID, dismissedInState: nil, serverOwner: server?.owner)
            if records[id] != record {
                records[id] = record
                actions.append(.saveRecord(id, record))
            }
        } else if farewells[id] != nil {
            // A server that ignores the timeout still loses the notification.
            farewells[id]?.closeAt = now.adding(NotificationContent.transientLifetime)
        }
    }

    private mutating func showFailed(_ id: TimerID, reason: String, now: Instant, into actions: inout [Action]) {
        held[id] = nil
        if let entry = entries.removeValue(forKey: id) {
            retries[id] = (entry.timer, now + Self.retryAfterFailure)
            actions += [
                .drop(id), .log(.warning, "Could not show the notification of timer \(id): \(reason)"), .statusChanged(id),
            ]
        } else if farewells.removeValue(forKey: id) != nil {
            actions += [.drop(id), .log(.warning, "Could not show that the sleep was saved: \(reason)")]
        }
    }

    private mutating func closed(_ id: TimerID, reason: UInt32, now: Instant, into actions: inout [Action]) {
        held[id] = nil
        guard let entry = entries.removeValue(forKey: id) else {
            farewells[id] = nil
            return
        }
        if entry.actionInvoked {
            // Closed by the server because of the click: show the timer's
            // current state as a new notification.
            refresh(entry.timer, now: now, announce: false, into: &actions)
        } else if reason == NotificationCloseReason.undefined {
            // Put away by the server itself, not by the user: xfce4-notifyd
            // does so with all it shows when Do Not Disturb begins, and with
            // every notification that comes during it. No dismissal: shown
            // again when the server can show it, or the timer changes.
            actions.append(.log(
                .info, "The server put away the notification of timer \(id); it comes back when the server or the timer changes."))
        } else if reason != NotificationCloseReason.closedByCall {
            // Dismissed (or expired): stay away until the timer's state
            // changes.
            let record = NotificationRecord(notificationID: 0, dismissedInState: entry.stateKey)
            records[id] = record
            actions += [
                .saveRecord(id, record),
                .log(.info, "The notification of timer \(id) was dismissed; it stays away until the timer changes."),
            ]
        }
        actions.append(.statusChanged(id))
    }

    private mutating func sayFarewell(_ id: TimerID, sleptMinutes: Int64, now: Instant, into actions: inout [Action]) {
        guard let server, let entry = entries[id], let rules = timeZones.rules(for: entry.timer.timer.timeZone) else {
            return
        }
        entries[id] = nil
        farewells[id] = Farewell()
        let content = NotificationContent.make(
            babyName: entry.timer.timer.babyName, phase: .saved(minutes: sleptMinutes),
            startedAt: entry.timer.timer.startedAt, now: now, rules: rules, timeFormat: settings.timeFormat,
            server: server.traits, liveElapsed: false)
        // No news either: the parent saved it a moment before.
        update(id, content, held: entry.content.urgency, news: false, now: now, into: &actions)
    }

    private mutating func wake(now: Instant, everything: Bool = false, into actions: inout [Action]) {
        for (id, farewell) in farewells where farewell.closeAt.map({ $0 <= now }) == true {
            farewells[id] = nil
            held[id] = nil
            actions.append(.close(id))
        }
        for (id, show) in held.sorted(by: { $0.key.string < $1.key.string }) where show.at <= now {
            post(id, show.content, replacing: show.replacing, now: now, into: &actions)
        }
        var due = entries.filter { everything || $0.value.refreshAt.map { $0 <= now } == true }.map(\.value.timer)
        for (id, retry) in retries where everything || retry.at <= now {
            retries[id] = nil
            due.append(retry.timer)
        }
        for timer in due.sorted(by: { $0.timer.id.string < $1.timer.id.string }) {
            refresh(timer, now: now, into: &actions)
        }
    }
}

/// Why a server closed a notification: NotificationClosed's reasons, as the
/// Desktop Notifications specification numbers them.
public enum NotificationCloseReason {
    /// Its timeout passed.
    public static let expired: UInt32 = 1
    /// The user dismissed it.
    public static let dismissedByUser: UInt32 = 2
    /// A CloseNotification call closed it (the agent's own, or another's).
    public static let closedByCall: UInt32 = 3
    /// A reason of the server's own.
    public static let undefined: UInt32 = 4
}
