import AgentWorkflows
import SleepTimerCore

extension Agent {
    /// The caller of an open from a notification's click: the server is one
    /// caller, whichever connection delivered the click.
    public static let notificationCaller = "the notification server"

    /// Opens the app at a timer; `activationToken` comes from the
    /// notification server or the panel when the user clicked.
    public func open(_ id: TimerID, activationToken: String?, caller: String) {
        guard let stored = timers[id], admitOpen(caller: caller) else { return }
        opener.open(stored.timer.deepLink(base: configuration.deepLinkBase), activationToken: activationToken)
    }

    /// Opens the app at its start (the panel's "Open Dreams for Littles").
    public func openApp(activationToken: String?, caller: String) {
        guard admitOpen(caller: caller) else { return }
        opener.open(DeepLink(appHomeAt: configuration.deepLinkBase), activationToken: activationToken)
    }

    /// Each open may start processes (the app, a browser, a configured
    /// program), so a caller gets a few at once and then one a second; a
    /// person clicks slower. One refused is logged once a minute per caller.
    private func admitOpen(caller: String) -> Bool {
        let now = clock.now()
        guard openLimit.asked(by: caller, now: now) == .refuse else { return true }
        noteRefusal(of: "Open", by: caller, "more opens than one a second were asked for; the app is already being opened", now: now)
        return false
    }

    /// Logs a refused call within the caller's log budget: the first at
    /// once, the rest counted into one line a minute, so that a flood of bad
    /// calls cannot push the agent's real lines out of the journal.
    public func noteRefusal(of member: String, by caller: String, _ message: String, count: Int = 1) {
        noteRefusal(of: member, by: caller, message, count: count, now: clock.now())
    }

    private func noteRefusal(of member: String, by caller: String, _ message: String, count: Int = 1, now: Instant) {
        guard case .log(let total) = refusalLog.refused(count, by: caller, now: now) else { return }
        let times = total == 1 ? "" : " (\(total) refusals of this caller since its last line; one line a minute is written)"
        log.log(.notice, "Refused \(member) from \(caller): \(message)\(times)")
    }
}

extension Agent {
    /// CompleteRunning: the one Sleep the desktop can complete goes through
    /// the notification's Complete (the outbox, exactly once), whose saved
    /// notification follows. None: a short notice says so, for a keystroke
    /// has no other way to answer. Several are opened by the caller's shell
    /// once the caller is known, within the opens' limit.
    public func completeRunning() throws(ServiceError) -> RunningSleepRule.CompleteDecision {
        let decision = RunningSleepRule.complete(among: timers.values, now: clock.now())
        switch decision {
        case .complete(let id):
            log.log(.info, "CompleteRunning completes timer \(id), the one running Sleep.")
            try complete(id, completedAt: nil)
        case .tellNoneRunning:
            log.log(.info, "CompleteRunning found no running Sleep to complete.")
            surface?.notice(.noSleepRunning)
        case .openAppHome:
            log.log(.info, "CompleteRunning found several running Sleeps; none is completed, the app opens at its start.")
        }
        return decision
    }

    /// OpenRunning: the one running Sleep's tracker, else the app's start
    /// page, each within the caller's opens; `activationToken` comes from
    /// the desktop when a key was pressed.
    public func openRunning(caller: String, activationToken: String? = nil) {
        switch RunningSleepRule.open(among: timers.values) {
        case .open(let id): open(id, activationToken: activationToken, caller: caller)
        case .openAppHome: openApp(activationToken: activationToken, caller: caller)
        }
    }
}
