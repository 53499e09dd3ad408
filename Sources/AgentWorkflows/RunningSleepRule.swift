import SleepTimerCore

/// What "Complete the running Sleep" and "Open the running Sleep" do, for
/// a keystroke that names no timer: the agent holds only self-mode Sleep
/// timers of signed-in families (Mirror refuses view-as, Purge forgets a
/// signed-out scope), so the timers it holds are the ones to count.
public enum RunningSleepRule {
    public enum CompleteDecision: Sendable, Equatable {
        /// The one Sleep that can be completed: completed as the
        /// notification's Complete, exactly once.
        case complete(TimerID)
        /// None can be completed here: nothing happens, and the person is
        /// told so.
        case tellNoneRunning
        /// More than one: a keystroke cannot say which, so nothing is
        /// completed and the app opens on its start page, where they are.
        case openAppHome
    }

    /// Only a timer the desktop can complete now counts (running, its
    /// token valid): one whose token ran out or whose completion is
    /// recorded would be refused anyway.
    public static func complete(among timers: some Sequence<StoredTimer>, now: Instant) -> CompleteDecision {
        let completable = timers.filter { $0.canComplete(at: now) }
        guard let first = completable.first else { return .tellNoneRunning }
        return completable.count == 1 ? .complete(first.timer.id) : .openAppHome
    }

    public enum OpenDecision: Sendable, Equatable {
        /// The one running Sleep: its tracker, as the notification's click.
        case open(TimerID)
        /// None or several: the app's start page.
        case openAppHome
    }

    /// Every Sleep still running counts, its token valid or not (the app
    /// finishes one the desktop cannot); one being saved does not.
    public static func open(among timers: some Sequence<StoredTimer>) -> OpenDecision {
        let running = timers.filter { $0.state == .running }
        guard running.count == 1, let only = running.first else { return .openAppHome }
        return .open(only.timer.id)
    }
}
