import AgentWorkflows
import SleepTimerCore

/// The agent's one loop timer, armed for the earliest moment any workflow
/// needs: nothing wakes the process between those moments. A machine's
/// moment is set where the agent holds it, after any event that changes
/// it (Agent.swift); the panel and the notification surface, which are
/// shells, report theirs.
extension Agent {
    func setWake(_ reason: AgentWake, at instant: Instant?) {
        switch schedule.deadlineChanged(reason, to: instant) {
        case .arm(let moment)?: arm(at: moment)
        case .disarm?: alarm.cancel()
        case nil: break
        }
    }

    private func arm(at moment: Instant) {
        alarm.set(at: moment) { [weak self] in self?.woke() }
    }

    /// The wall clock was set, or the machine woke from a suspend: every
    /// text, expiry, renewal and retry computed from the old time is done
    /// again now, and the alarm armed again.
    public func clockChanged(reason: String) {
        let now = clock.now()
        log.log(.info, "Bringing every timer up to date: \(reason).")
        switch schedule.alarmLost() {
        case .arm(let moment)?: arm(at: moment)
        case nil: break
        }
        applyLifecycle()
        notificationsClockChanged(now: now)
        lookAtOutbox()
        if let panel { panel.wake(now: now); setWake(.panel, at: panel.wakeAt) }
    }

    private func woke() {
        let now = clock.now()
        // The alarm armed again first, then each reason due, earliest first.
        var due: [AgentWake] = []
        for action in schedule.alarmFired(at: now) {
            switch action {
            case .arm(let moment): arm(at: moment)
            case .due(let reason): due.append(reason)
            }
        }
        for reason in due {
            switch reason {
            case .tokenExpiry: applyLifecycle()
            case .notifications: notificationsWoke(now: now)
            case .completions: lookAtOutbox()
            case .panel: wakePanel(now: now)
            case .background: carryOut(backgroundLaunch.woke(now: now))
            case .notificationServer: surface?.wake(now: now)
            }
        }
    }

    /// Carries out what the lifecycle finds due: tokens to renew, tokens
    /// that ran out, timers past any sleep's length.
    func applyLifecycle() {
        let now = clock.now()
        for action in lifecycle.timersSeen(timers.values, now: now) {
            switch action {
            case .renewalDue(let id, let expiresAt):
                log.log(.info, "The action token of timer \(id) expires soon; asking the app for a new one.")
                backgroundLaunch.renewalAsked(id, expiresAt: expiresAt, now: now)
                for observer in observers { observer.tokenExpiring(id, expiresAt: expiresAt) }
            case .tokenExpired(let id):
                log.log(.info, "The action token of timer \(id) ran out; it stays shown, to be finished in the app.")
                announceChange(of: id)
            case .remove(let ids):
                drop(ids, now: now)
            }
        }
    }

    /// At the start: the timers brought back from the store may need the
    /// app (after a reboot, nothing else starts it); BackgroundLaunchMachine
    /// says which.
    func launchForRestoredTimers() {
        for action in backgroundLaunch.restored(timers: Array(timers.values), now: clock.now()) {
            switch action {
            case .launch(let ids): launchInBackground(for: ids)
            }
        }
    }

    /// Starts the app in the background, for the timers whose renewal did
    /// not come.
    func carryOut(_ actions: [BackgroundLaunchMachine.WokeAction]) {
        for action in actions {
            switch action {
            case .launch(let ids):
                launchInBackground(for: ids)
            case .heldBack(let ids):
                log.log(.notice, "No renewal came for \(ids.map(\.string).joined(separator: ", ")), and the app was started for it less than an hour ago; it is not started again yet (is the web app signed in?).")
            }
        }
    }

    private func launchInBackground(for ids: [TimerID]) {
        guard let launchAppInBackground else { return }
        log.log(.info, "Starting the app in the background for \(ids.count) timer(s): \(ids.map(\.string).joined(separator: ", ")).")
        launchAppInBackground()
    }

    /// Drops timers no sleep could still be running for.
    private func drop(_ ids: [TimerID], now: Instant) {
        let removed: [TimerID]
        do {
            removed = try store.remove(ids)
        } catch {
            log.log(.error, "Could not drop finished timers: \(error)")
            return lifecycle.removalNotStored(now: now)
        }
        // Gone from the store now, or never there.
        for id in ids { timers[id] = nil }
        guard !removed.isEmpty else { return }
        log.log(.info, "Dropped \(removed.count) timer(s) started longer ago than any sleep lasts.")
        announceRemoval(removed, reason: .expired)
    }
}
