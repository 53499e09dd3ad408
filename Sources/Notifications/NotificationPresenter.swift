import CDFLNotify
import DFLDBus
import EventLoop
import SleepAgent
import SleepTimerCore
import SleepTimerStore

/// The agent's face: one desktop notification per mirrored timer, kept in
/// step with the timer's state, with Complete and a click that opens the
/// app, live elapsed time on the minute boundary, respect for dismissal, and
/// everything posted again when the notification server restarts.
public final class NotificationPresenter: AgentObserver {
    private let agent: Agent
    private let loop: MainLoop
    private let watch: NotificationServerWatch
    private let hourCycle: HourCycle
    private let timeZones: any TimeZoneResolving
    private let liveElapsed: LiveElapsedMode
    private let clock: any WallClock
    private let log: any LogSink

    private var server: NotificationServerWatch.Server?

    /// A "Sleep saved" notification and the timeout that closes it if the
    /// server does not.
    private struct Farewell {
        let notification: DesktopNotification
        var timeout: MainLoop.Source?
    }

    /// A notification on screen for a timer.
    private final class Entry {
        let notification: DesktopNotification
        var content: NotificationContent
        var view: TimerView
        /// Set when the user clicked an action: some servers close a
        /// notification after any action (xfce4-notifyd ignores "resident"),
        /// and that close is not a dismissal.
        var actionInvoked = false

        init(notification: DesktopNotification, content: NotificationContent, view: TimerView) {
            self.notification = notification
            self.content = content
            self.view = view
        }
    }

    private var entries: [TimerID: Entry] = [:]
    /// "Sleep saved" notifications, kept until they close by themselves.
    private var farewells: [ObjectIdentifier: Farewell] = [:]
    private var liveUpdate: MainLoop.Source?

    public init(
        agent: Agent, connection: BusConnection, loop: MainLoop, hourCycle: HourCycle, timeZones: any TimeZoneResolving,
        clock: any WallClock, log: any LogSink
    ) {
        self.agent = agent
        self.loop = loop
        self.watch = NotificationServerWatch(connection: connection, log: log)
        self.hourCycle = hourCycle
        self.timeZones = timeZones
        self.liveElapsed = agent.configuration.liveElapsed
        self.clock = clock
        self.log = log
    }

    /// Pending wake-ups go with the presenter: the loop may outlive it.
    deinit {
        liveUpdate?.cancel()
        for farewell in farewells.values { farewell.timeout?.cancel() }
    }

    public func start() {
        notify_init(DesktopNotification.appName)
        agent.notificationStatus = { [weak self] id in self?.status(of: id) ?? .unavailable }
        watch.onChange = { [weak self] server in self?.serverChanged(to: server) }
        watch.start()
    }

    // MARK: Status

    /// The key of what a timer's notification shows; a dismissal holds
    /// until it changes.
    static func stateKey(_ view: TimerView) -> String {
        "\(view.stored.state.rawValue):\(view.timer.revision):\(view.canComplete)"
    }

    private func status(of id: TimerID) -> NotificationStatus {
        guard server != nil else { return .unavailable }
        if entries[id] != nil { return .shown }
        if let record = try? agent.store.notification(for: id), record.dismissedInState != nil { return .dismissed }
        return .unavailable
    }

    // MARK: The server

    private func serverChanged(to new: NotificationServerWatch.Server?) {
        // Ids belong to the server that gave them out: a new server (or
        // none) makes every notification we hold meaningless.
        entries.removeAll()
        for farewell in farewells.values { farewell.timeout?.cancel() }
        farewells.removeAll()
        liveUpdate?.cancel()
        liveUpdate = nil
        server = new
        agent.notificationServer = new?.displayName ?? ""
        let views = (try? agent.list()) ?? []
        for view in views {
            if new != nil { refresh(view) }
            agent.notificationStatusChanged(view.timer.id)
        }
    }

    // MARK: AgentObserver

    public func timerChanged(_ view: TimerView) {
        refresh(view)
    }

    public func timerRemoved(_ id: TimerID, reason: RemovalReason) {
        guard let entry = entries.removeValue(forKey: id) else { return }
        entry.notification.onClosed = nil
        entry.notification.close()
        scheduleLiveUpdate()
    }

    public func completionFinished(_ id: TimerID, outcome: CompletionOutcome, activityID: String, sleptMinutes: Int64?) {
        guard outcome == .created, let entry = entries.removeValue(forKey: id), let server, let minutes = sleptMinutes,
            let rules = timeZones.rules(for: entry.view.timer.timeZone)
        else { return }
        let content = NotificationContent.make(
            babyName: entry.view.timer.babyName, phase: .saved(minutes: minutes), startedAt: entry.view.timer.startedAt,
            now: clock.now(), rules: rules, hourCycle: hourCycle, server: server.traits)
        let notification = entry.notification
        notification.onAction = nil
        notification.apply(content)
        let key = ObjectIdentifier(notification)
        notification.onClosed = { [weak self] _ in self?.farewells.removeValue(forKey: key)?.timeout?.cancel() }
        farewells[key] = Farewell(notification: notification)
        do {
            try notification.show()
        } catch {
            farewells[key] = nil
            log.log(.warning, "Could not show that the sleep was saved: \(error)")
            return
        }
        // A server that ignores the timeout still loses the notification.
        farewells[key]?.timeout = loop.after(milliseconds: UInt32(NotificationContent.transientTimeout) + 4000) {
            [weak self] in
            self?.farewells.removeValue(forKey: key)?.notification.close()
            return .remove
        }
        scheduleLiveUpdate()
    }

    public func propertiesChanged(_ properties: AgentProperties, previous: AgentProperties) {}

    // MARK: Showing

    private func phase(of view: TimerView) -> NotificationPhase {
        switch view.stored.state {
        case .running: return .running(canComplete: view.canComplete)
        case .saving: return .saving(waitingForNetwork: agent.completionIsWaiting(view.timer.id))
        case .saveFailed, .needsApp: return .failed
        }
    }

    /// Shows `view` as it is now: posts, updates in place, or keeps away
    /// when the user dismissed this very state.
    private func refresh(_ view: TimerView) {
        guard let server, let rules = timeZones.rules(for: view.timer.timeZone) else { return }
        let id = view.timer.id
        let key = Self.stateKey(view)
        var record = try? agent.store.notification(for: id)
        if let dismissed = record?.dismissedInState {
            if dismissed == key { return }
            // The state moved on since the dismissal: show it again.
            let cleared = NotificationRecord(notificationID: 0, dismissedInState: nil)
            try? agent.store.setNotification(for: id, cleared)
            record = cleared
        }
        let content = NotificationContent.make(
            babyName: view.timer.babyName, phase: phase(of: view), startedAt: view.timer.startedAt, now: clock.now(),
            rules: rules, hourCycle: hourCycle, server: server.traits)
        if let entry = entries[id] {
            entry.view = view
            if entry.content != content {
                entry.content = content
                entry.notification.apply(content)
                show(entry, id: id, stored: record)
            }
        } else {
            let notification = DesktopNotification(content)
            // After a restart of the agent alone, replace what it showed
            // before instead of adding a second notification.
            if let record, record.serverOwner == server.owner, record.notificationID != 0, record.dismissedInState == nil {
                notification.id = record.notificationID
            }
            let entry = Entry(notification: notification, content: content, view: view)
            notification.onAction = { [weak self, weak entry] action, token in
                guard let self, let entry else { return }
                entry.actionInvoked = true
                self.invoked(action, on: entry.view.timer.id, activationToken: token)
            }
            notification.onClosed = { [weak self, weak entry] reason in
                guard let self, let entry else { return }
                self.closed(entry, reason: reason)
            }
            entries[id] = entry
            show(entry, id: id, stored: record)
            agent.notificationStatusChanged(id)
        }
        scheduleLiveUpdate()
    }

    /// `stored` is the timer's notification record as refresh just read it.
    private func show(_ entry: Entry, id: TimerID, stored: NotificationRecord?) {
        do {
            try entry.notification.show()
            // Written only when it changed: an update in place keeps its id,
            // and a durable write a minute per timer would be waste.
            let record = NotificationRecord(notificationID: entry.notification.id, dismissedInState: nil, serverOwner: server?.owner)
            if stored != record { try? agent.store.setNotification(for: id, record) }
        } catch {
            log.log(.warning, "Could not show the notification of timer \(id): \(error)")
            entries[id] = nil
        }
    }

    private func invoked(_ action: NotificationAction, on id: TimerID, activationToken: String?) {
        switch action {
        case .complete:
            do {
                _ = try agent.complete(id.string, completedAtMilliseconds: 0)
            } catch {
                log.log(.warning, "Complete from the notification of timer \(id) was refused: \(error.message)")
            }
        case .open:
            agent.open(id, activationToken: activationToken)
        }
    }

    private func closed(_ entry: Entry, reason: Int32) {
        let id = entry.view.timer.id
        guard entries[id] === entry else { return }
        entries[id] = nil
        if entry.actionInvoked {
            // Closed by the server because of the click: show the timer's
            // current state as a new notification.
            if let stored = try? agent.store.timer(id) { refresh(agent.view(of: stored)) }
        } else if reason != 3 {
            // Dismissed (or expired, or gone for a reason the server did not
            // say): stay away until the timer's state changes.
            log.log(.info, "The notification of timer \(id) was dismissed; it stays away until the timer changes.")
            try? agent.store.setNotification(
                for: id, NotificationRecord(notificationID: 0, dismissedInState: Self.stateKey(entry.view)))
        }
        agent.notificationStatusChanged(id)
        scheduleLiveUpdate()
    }

    // MARK: Live elapsed time

    /// One loop timer for the next minute boundary of any running timer's
    /// start; none while nothing runs, so the agent sleeps.
    private func scheduleLiveUpdate() {
        liveUpdate?.cancel()
        liveUpdate = nil
        guard let server, server.traits.updatesElapsedTime(liveElapsed) else { return }
        let now = clock.now()
        let running = entries.values.filter { $0.view.stored.state == .running }
        guard let next = running.map({ NotificationContent.nextMinuteBoundary(after: now, startedAt: $0.view.timer.startedAt) }).min()
        else { return }
        let wait = UInt32(clamping: max(0, next.milliseconds(since: now)))
        liveUpdate = loop.after(milliseconds: wait) { [weak self] in
            guard let self else { return .remove }
            self.liveUpdate = nil
            for entry in self.entries.values where entry.view.stored.state == .running {
                self.refresh(entry.view)
            }
            self.scheduleLiveUpdate()
            return .remove
        }
    }
}
