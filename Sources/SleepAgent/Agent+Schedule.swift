import AgentWorkflows
import SleepTimerCore

/// The agent's one loop timer, armed for the earliest moment any workflow
/// needs: nothing wakes the process between those moments.
extension Agent {
    func setWake(_ reason: AgentWake, at instant: Instant?) {
        if let arm = schedule.update(reason, to: instant) { apply(arm) }
    }

    private func apply(_ arm: Schedule<AgentWake>.Arm) {
        guard case .at(let moment) = arm else { return alarm.cancel() }
        alarm.set(at: moment) { [weak self] in self?.woke() }
    }

    private func woke() {
        let now = clock.now()
        let (due, arm) = schedule.fire(at: now)
        if let arm { apply(arm) }
        for reason in due {
            switch reason {
            case .tokenExpiry: applyLifecycle()
            case .notifications: runPlan(.wake(now: now))
            case .completions: lookAtOutbox()
            }
        }
    }

    /// Drops the timers whose token expired, and sets the wake-up for the
    /// next expiry.
    func applyLifecycle() {
        let now = clock.now()
        let decision = TimerLifecycle.decide(timers.values, now: now)
        guard !decision.expired.isEmpty else { return setWake(.tokenExpiry, at: decision.wakeAt) }
        let removed: [TimerID]
        do {
            removed = try store.remove(decision.expired)
        } catch {
            // Tried again a little later, not in a tight loop on a failing disk.
            log.log(.error, "Could not drop expired timers: \(error)")
            let retry = now.adding(milliseconds: Self.storeFailureRetry)
            return setWake(.tokenExpiry, at: min(decision.wakeAt ?? retry, retry))
        }
        // Gone from the store now, or never there.
        for id in decision.expired { timers[id] = nil }
        if removed.isEmpty { return applyLifecycle() }
        log.log(.info, "Dropped \(removed.count) timer(s) whose action token expired.")
        // Applies the lifecycle again, for the timers left.
        announceRemoval(removed, reason: .expired)
    }

    /// How long after a failed write the agent tries again.
    static let storeFailureRetry = 30 * Milliseconds.second
}
