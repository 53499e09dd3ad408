import SleepTimerCore

/// The notification server on the bus, as far as the notification machine
/// needs it.
public struct NotificationServer: Sendable, Equatable {
    /// The owner's unique name: it changes when the server restarts, and
    /// notification ids belong to it.
    public let owner: String
    /// "name version" from GetServerInformation.
    public let displayName: String
    public let traits: NotificationServerTraits
    /// Where the notifications go. The portal's ids are the agent's own
    /// (the timer's), and the desktop keeps them across the portal's and
    /// the agent's restarts; a server's ids belong to its owner.
    public var surface: NotificationSurfaceKind = .server

    public init(owner: String, displayName: String, traits: NotificationServerTraits) {
        self.owner = owner
        self.displayName = displayName
        self.traits = traits
    }

    /// Whether a notification recorded as shown under `record` may still be
    /// on this server's screen: on the portal always (its id is the
    /// timer's), on a server only under the id that same owner gave.
    func mayShow(_ record: NotificationRecord) -> Bool {
        switch surface {
        case .portal: return record.dismissedInState == nil
        case .server: return record.dismissedInState == nil && record.notificationID != 0 && record.serverOwner == owner
        }
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
/// The machine knows notifications by their timer's id; the shell keeps one
/// libnotify object per id, carries out the actions, and reports what the
/// server did (shown, closed, an action) as events.
public struct NotificationMachine: Sendable {
    public struct Settings: Sendable, Equatable {
        public var liveElapsed: LiveElapsedMode
        public var timeFormat: TimeFormat
        /// How long after a server failed to take a notification it is
        /// offered again: a passing stall must not hide a sleep until it
        /// next changes.
        public var retryAfterFailure: Duration
        /// How long the same summary and body are not sent again for a
        /// timer: Plasma refuses a notification identical to one it took
        /// less than a second before (ExcessNotificationGeneration), by the
        /// moments the two reached it; the second more is for the way there
        /// (the notifications' thread, the bus), which can be longer for the
        /// first than the second.
        public var repeatInterval: Duration

        public init(
            liveElapsed: LiveElapsedMode, timeFormat: TimeFormat, retryAfterFailure: Duration = .seconds(30),
            repeatInterval: Duration = .seconds(2)
        ) {
            self.liveElapsed = liveElapsed
            self.timeFormat = timeFormat
            self.retryAfterFailure = retryAfterFailure
            self.repeatInterval = repeatInterval
        }
    }

    /// A notification on screen for a running (or saving, or failed) timer.
    public struct Entry: Sendable, Equatable {
        public fileprivate(set) var timer: StoredTimer
        public fileprivate(set) var content: NotificationContent
        public fileprivate(set) var phase: TimerPhase
        /// The state it shows, as a dismissal is recorded against it.
        public fileprivate(set) var stateKey: String
        /// When its text next changes, while it is updated in place.
        public fileprivate(set) var refreshAt: Instant?
        /// Set when the user clicked an action: some servers close a
        /// notification after any action (xfce4-notifyd ignores
        /// "resident"), and that close is not a dismissal.
        public fileprivate(set) var actionInvoked = false
    }

    /// A "Sleep saved" notification, kept until it closes by itself or,
    /// on a server that ignores the timeout, until `closeAt`.
    public struct Farewell: Sendable, Equatable {
        public fileprivate(set) var closeAt: Instant?
    }

    /// A timer whose notification the server failed to take (it timed out,
    /// or answered with an error), to be shown again `at`.
    public struct Retry: Sendable, Equatable {
        public let timer: StoredTimer
        public let at: Instant
    }

    /// The text last sent for a timer, and when.
    public struct Sent: Sendable, Equatable {
        public let summary: String
        public let body: String
        public let at: Instant
    }

    /// A show held back until `at`, since it would repeat the text sent
    /// less than `repeatInterval` before.
    public struct Held: Sendable, Equatable {
        public let content: NotificationContent
        public let replacing: UInt32
        public let at: Instant
    }

    /// What the machine remembers between events.
    public struct State: Sendable, Equatable {
        /// The server on the bus; nil while none has the name.
        public fileprivate(set) var server: NotificationServer?
        public fileprivate(set) var entries: [TimerID: Entry] = [:]
        public fileprivate(set) var farewells: [TimerID: Farewell] = [:]
        public fileprivate(set) var retries: [TimerID: Retry] = [:]
        /// What the store keeps of each timer's notification: its id on the
        /// server, and a dismissal.
        public fileprivate(set) var records: [TimerID: NotificationRecord]
        public fileprivate(set) var lastSent: [TimerID: Sent] = [:]
        public fileprivate(set) var held: [TimerID: Held] = [:]

        /// No server yet; `records` are what the store keeps of earlier
        /// notifications.
        public init(records: [TimerID: NotificationRecord] = [:]) {
            self.records = records
        }
    }

    public private(set) var settings: Settings
    private(set) var state: State
    private let timeZones: any TimeZoneResolving

    /// `records` are what the store keeps of earlier notifications.
    public init(settings: Settings, timeZones: any TimeZoneResolving, records: [TimerID: NotificationRecord] = [:]) {
        self.settings = settings
        self.timeZones = timeZones
        state = State(records: records)
    }

    /// The notification server on the bus, nil while none has the name: the
    /// shell names it in the agent's NotificationServer property.
    public var server: NotificationServer? { state.server }

    /// The key of what a timer's notification shows; a dismissal holds
    /// until it changes. Stored: its form never changes.
    public static func stateKey(_ timer: StoredTimer, now: Instant) -> String {
        "\(timer.state.rawValue):\(timer.timer.revision):\(timer.canComplete(at: now))"
    }

    /// What List says of a timer's notification.
    public func status(of id: TimerID) -> NotificationStatus {
        guard state.server != nil else { return .unavailable }
        if state.entries[id] != nil { return .shown }
        if state.records[id]?.dismissedInState != nil { return .dismissed }
        return .unavailable
    }

    /// When the machine next needs the loop: a minute boundary of a shown
    /// running timer, a farewell to close, a retry or a held show. nil when
    /// nothing waits.
    public var wakeAt: Instant? {
        let moments = [
            state.entries.values.compactMap(\.refreshAt).min(), state.farewells.values.compactMap(\.closeAt).min(),
            state.retries.values.map(\.at).min(), state.held.values.map(\.at).min(),
        ]
        return moments.compactMap { $0 }.min()
    }

    /// What every event but a click leads to: events that lead to the same
    /// things share this one type, and each test of an event says which of
    /// them it takes.
    public enum Action: Sendable, Equatable {
        /// Post, or update in place once shown. A new notification replaces
        /// `replacing` when it is not 0 (the one a restarted agent showed).
        case show(TimerID, NotificationContent, replacing: UInt32)
        /// Close it on the server and forget it: the timer left, a
        /// farewell's time is up, or an update is posted anew.
        case close(TimerID)
        /// Forget it without closing: the server did not take it.
        case drop(TimerID)
        /// Forget every notification without closing: their ids belong to a
        /// server that is gone.
        case dropAll
        /// Keep this durably, so that a restarted agent replaces its own
        /// notification and honours a dismissal.
        case saveRecord(TimerID, NotificationRecord)
        /// Forget the stored record of a timer no longer held: nothing of
        /// it can be on screen (dismissed, withdrawn, or its server gone).
        case forgetRecord(TimerID)
        /// Take away a notification a killed or restarted agent left for a
        /// timer it no longer holds, so that no Complete stays on screen
        /// that could act on it; `notificationID` is the server's id (0 on
        /// the portal, where the timer's id is the notification's). The
        /// surface reports `withdrawn` once the server answered.
        case withdraw(TimerID, notificationID: UInt32)
        /// What List says about this timer's notification changed.
        case statusChanged(TimerID)
        case log(LogPriority, String)
    }

    // MARK: The server


    /// A server took the name (or none has it now); `timers` are every
    /// mirrored timer. The records of timers no longer held (the store
    /// keeps a record past its timer until its notification is taken
    /// away) are withdrawn from this server, or forgotten when nothing of
    /// them can be on it.
    public mutating func serverChanged(
        _ new: NotificationServer?, timers: [StoredTimer], now: Instant
    ) -> [Action] {
        var actions: [Action] = []
        if let new, let old = state.server, new.owner == old.owner {
            // The same server, able to do more or less now (Do Not Disturb
            // began or ended): its ids still hold, so every notification is
            // updated in place, and what the server put away is shown again.
            state.server = new
            for timer in timers {
                state.retries[timer.timer.id] = nil
                refresh(timer, now: now, into: &actions)
            }
            return actions
        }
        // Ids belong to the server that gave them out: a new server (or
        // none) makes every notification held meaningless.
        actions.append(.dropAll)
        state.entries.removeAll()
        state.farewells.removeAll()
        state.retries.removeAll()
        state.held.removeAll()
        state.server = new
        if let new {
            let held = Set(timers.map(\.timer.id))
            for (id, record) in state.records.sorted(by: { $0.key.string < $1.key.string }) where !held.contains(id) {
                if new.mayShow(record) {
                    actions.append(.withdraw(id, notificationID: record.notificationID))
                } else {
                    state.records[id] = nil
                    actions.append(.forgetRecord(id))
                }
            }
        }
        for timer in timers {
            if new != nil { refresh(timer, now: now, announce: false, into: &actions) }
            actions.append(.statusChanged(timer.timer.id))
        }
        return actions
    }


    /// The server answered the withdrawal of a notification left for a
    /// timer no longer held. Its record goes, unless the timer came back
    /// meanwhile and is shown again under it.
    public mutating func withdrawn(_ id: TimerID) -> [Action] {
        guard state.entries[id] == nil, state.farewells[id] == nil, state.records[id] != nil else { return [] }
        state.records[id] = nil
        return [
            .log(.info, "Took away the notification an earlier run left for timer \(id), which is no longer held."),
            .forgetRecord(id),
        ]
    }

    // MARK: The timers


    /// A mirrored timer was added or changed.
    public mutating func timerChanged(_ timer: StoredTimer, now: Instant) -> [Action] {
        var actions: [Action] = []
        state.retries[timer.timer.id] = nil
        refresh(timer, now: now, into: &actions)
        return actions
    }


    /// A timer left the list; a farewell shown for it stays (it has no
    /// Complete, and closes by itself). With no server on the bus its
    /// record is kept: the desktop may still show the notification (it
    /// keeps a portal app's while the portal is away), and the server that
    /// comes next is asked to take it away. The record is forgotten after
    /// the close, so that an agent killed between the two withdraws the
    /// notification at its next start.
    public mutating func timerRemoved(_ id: TimerID) -> [Action] {
        state.retries[id] = nil
        state.held[id] = nil
        state.lastSent[id] = nil
        var actions: [Action] = []
        if state.entries.removeValue(forKey: id) != nil { actions.append(.close(id)) }
        if state.server != nil, state.records.removeValue(forKey: id) != nil { actions.append(.forgetRecord(id)) }
        return actions
    }


    /// The platform created the activity; the sleep lasted `sleptMinutes`.
    public mutating func saved(_ id: TimerID, sleptMinutes: Int64, now: Instant) -> [Action] {
        guard let server = state.server, let entry = state.entries[id],
            let rules = timeZones.rules(for: entry.timer.timer.timeZone)
        else { return [] }
        var actions: [Action] = []
        state.entries[id] = nil
        state.farewells[id] = Farewell()
        let content = NotificationContent.make(
            babyName: entry.timer.timer.babyName, phase: .saved(minutes: sleptMinutes),
            startedAt: entry.timer.timer.startedAt, now: now, rules: rules, timeFormat: settings.timeFormat,
            server: server.traits, liveElapsed: false)
        // No news either: the parent saved it a moment before.
        update(id, content, held: entry.content.urgency, news: false, now: now, into: &actions)
        return actions
    }

    // MARK: The server's answers


    /// The server took the notification under this id.
    public mutating func shown(_ id: TimerID, notificationID: UInt32, now: Instant) -> Action? {
        if state.entries[id] != nil {
            // Written only when it changed: an update in place keeps its
            // id, and a durable write a minute per timer would be waste.
            let record = NotificationRecord(
                notificationID: notificationID, dismissedInState: nil, serverOwner: state.server?.owner)
            if state.records[id] != record {
                state.records[id] = record
                return .saveRecord(id, record)
            }
        } else if state.farewells[id] != nil {
            // A server that ignores the timeout still loses the notification.
            state.farewells[id]?.closeAt = now.adding(NotificationContent.transientLifetime)
        }
        return nil
    }


    /// The server failed to take the notification (it timed out, or
    /// answered with an error).
    public mutating func showFailed(_ id: TimerID, reason: String, now: Instant) -> [Action] {
        state.held[id] = nil
        if let entry = state.entries.removeValue(forKey: id) {
            state.retries[id] = Retry(timer: entry.timer, at: now + settings.retryAfterFailure)
            return [
                .drop(id), .log(.warning, "Could not show the notification of timer \(id): \(reason)"), .statusChanged(id),
            ]
        } else if state.farewells.removeValue(forKey: id) != nil {
            return [.drop(id), .log(.warning, "Could not show that the sleep was saved: \(reason)")]
        }
        return []
    }


    /// The server closed the notification (its object is gone), for one of
    /// the NotificationCloseReason.
    public mutating func closed(_ id: TimerID, reason: UInt32, now: Instant) -> [Action] {
        state.held[id] = nil
        guard let entry = state.entries.removeValue(forKey: id) else {
            state.farewells[id] = nil
            return []
        }
        var actions: [Action] = []
        if entry.actionInvoked {
            // Closed by the server because of the click: show the timer's
            // current state as a new notification.
            reshow(entry.timer, now: now, announce: false, into: &actions)
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
            state.records[id] = record
            actions += [
                .saveRecord(id, record),
                .log(.info, "The notification of timer \(id) was dismissed; it stays away until the timer changes."),
            ]
        }
        actions.append(.statusChanged(id))
        return actions
    }

    public enum ClickedAction: Sendable, Equatable {
        /// Complete the timer, as a click on Complete asks.
        case complete(TimerID)
        /// Open the app at the timer; the activation token lets it take
        /// the focus.
        case open(TimerID, activationToken: String?)
    }

    /// The user clicked one of the notification's actions (or its body);
    /// the activation token comes from the server, for the app to take the
    /// focus. Nothing for a notification no longer shown.
    public mutating func clicked(_ id: TimerID, _ action: NotificationAction, activationToken: String?) -> ClickedAction? {
        guard state.entries[id] != nil else { return nil }
        state.entries[id]?.actionInvoked = true
        return action == .complete ? .complete(id) : .open(id, activationToken: activationToken)
    }

    // MARK: Time and settings


    /// The moment `wakeAt` named has come.
    public mutating func woke(now: Instant) -> [Action] {
        var actions: [Action] = []
        wake(now: now, into: &actions)
        return actions
    }


    /// The clock was set or the machine woke: every text is made again for
    /// the time it is now.
    public mutating func clockChanged(now: Instant) -> [Action] {
        var actions: [Action] = []
        wake(now: now, everything: true, into: &actions)
        return actions
    }


    /// The configuration was reloaded, or the desktop's time format
    /// changed: every text is made again with these settings.
    public mutating func settingsChanged(_ new: Settings, now: Instant) -> [Action] {
        settings = new
        var actions: [Action] = []
        wake(now: now, everything: true, into: &actions)
        return actions
    }

    // MARK: Shared steps

    /// Shows `timer` as it is now: posts, updates in place, or keeps away
    /// when the user dismissed this very state.
    private mutating func refresh(
        _ timer: StoredTimer, now: Instant, announce: Bool = true, into actions: inout [Action]
    ) {
        guard let server = state.server, let rules = timeZones.rules(for: timer.timer.timeZone) else { return }
        let key = Self.stateKey(timer, now: now)
        guard undismissed(timer.timer.id, key: key, into: &actions) else { return }
        present(timer, key: key, server: server, rules: rules, now: now, announce: announce, into: &actions)
    }

    /// Posts `timer` again as a new notification, the server having closed
    /// the one it showed. That one was on screen until now, so no dismissal
    /// is recorded for it (one is recorded only as a notification is taken
    /// away), and none is looked for.
    private mutating func reshow(
        _ timer: StoredTimer, now: Instant, announce: Bool, into actions: inout [Action]
    ) {
        guard let server = state.server, let rules = timeZones.rules(for: timer.timer.timeZone) else { return }
        postAnew(
            timer, key: Self.stateKey(timer, now: now), server: server, rules: rules, now: now, announce: announce,
            into: &actions)
    }

    /// Whether a timer showing `key` may be shown: not while the user's
    /// dismissal of this very state holds. A dismissal of an earlier state
    /// is cleared.
    private mutating func undismissed(
        _ id: TimerID, key: String, into actions: inout [Action]
    ) -> Bool {
        guard let dismissed = state.records[id]?.dismissedInState else { return true }
        if dismissed == key { return false }
        // The state moved on since the dismissal: show it again.
        let cleared = NotificationRecord(notificationID: 0, dismissedInState: nil)
        state.records[id] = cleared
        actions.append(.saveRecord(id, cleared))
        return true
    }

    /// The text of `timer` as it is now, and when it next changes.
    private func content(
        of timer: StoredTimer, server: NotificationServer, rules: TimeZoneRules, now: Instant
    ) -> (content: NotificationContent, phase: TimerPhase, refreshAt: Instant?) {
        let live = server.traits.updatesElapsedTime(settings.liveElapsed)
        let phase = TimerPhase(of: timer, at: now)
        let content = NotificationContent.make(
            babyName: timer.timer.babyName, phase: phase, startedAt: timer.timer.startedAt,
            now: now, rules: rules, timeFormat: settings.timeFormat, server: server.traits, liveElapsed: live)
        let refreshAt = phase.isRunning && live
            ? TimerPhase.nextMinuteBoundary(after: now, startedAt: timer.timer.startedAt) : nil
        return (content, phase, refreshAt)
    }

    /// Shows `timer` as it is now, no dismissal in the way: updates its
    /// notification in place, or posts it.
    private mutating func present(
        _ timer: StoredTimer, key: String, server: NotificationServer, rules: TimeZoneRules, now: Instant,
        announce: Bool, into actions: inout [Action]
    ) {
        let id = timer.timer.id
        guard var entry = state.entries[id] else {
            return postAnew(timer, key: key, server: server, rules: rules, now: now, announce: announce, into: &actions)
        }
        let (made, phase, refreshAt) = content(of: timer, server: server, rules: rules, now: now)
        var content = made
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
        state.entries[id] = entry
    }

    /// Posts `timer` as a new notification, none being shown for it.
    private mutating func postAnew(
        _ timer: StoredTimer, key: String, server: NotificationServer, rules: TimeZoneRules, now: Instant,
        announce: Bool, into actions: inout [Action]
    ) {
        let id = timer.timer.id
        let (content, phase, refreshAt) = content(of: timer, server: server, rules: rules, now: now)
        // After a restart of the agent alone, replace what it showed
        // before instead of adding a second notification.
        var replacing: UInt32 = 0
        if let record = state.records[id], record.serverOwner == server.owner, record.dismissedInState == nil {
            replacing = record.notificationID
        }
        state.farewells[id] = nil
        state.entries[id] = Entry(timer: timer, content: content, phase: phase, stateKey: key, refreshAt: refreshAt)
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
        if state.server?.traits.bannersUnlessLowUrgency == true && (held == .low) == news {
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
        if let last = state.lastSent[id], last.summary == content.summary, last.body == content.body {
            let free = last.at + settings.repeatInterval
            if now < free {
                state.held[id] = Held(content: content, replacing: replacing, at: free)
                return
            }
        }
        state.held[id] = nil
        state.lastSent[id] = Sent(summary: content.summary, body: content.body, at: now)
        actions.append(.show(id, content, replacing: replacing))
    }

    /// Closes the farewells whose time is up, sends the shows held back,
    /// and makes again the texts whose minute came, and those offered again
    /// after a failure; with `everything`, every text.
    ///
    /// A timer shown or offered again has no dismissal (one is recorded
    /// only as its notification is taken away), so none is looked for.
    private mutating func wake(
        now: Instant, everything: Bool = false, into actions: inout [Action]
    ) {
        for (id, farewell) in state.farewells where farewell.closeAt.map({ $0 <= now }) == true {
            state.farewells[id] = nil
            state.held[id] = nil
            actions.append(.close(id))
        }
        for (id, show) in state.held.sorted(by: { $0.key.string < $1.key.string }) where show.at <= now {
            post(id, show.content, replacing: show.replacing, now: now, into: &actions)
        }
        var due = state.entries.filter { everything || $0.value.refreshAt.map { $0 <= now } == true }.map(\.value.timer)
        for (id, retry) in state.retries where everything || retry.at <= now {
            state.retries[id] = nil
            due.append(retry.timer)
        }
        for timer in due.sorted(by: { $0.timer.id.string < $1.timer.id.string }) {
            guard let server = state.server, let rules = timeZones.rules(for: timer.timer.timeZone) else { continue }
            present(
                timer, key: Self.stateKey(timer, now: now), server: server, rules: rules, now: now, announce: true,
                into: &actions)
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
