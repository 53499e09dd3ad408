import SleepTimerCore

/// When the desktop's style is applied. Each application can make GTK
/// reload its theme, which holds the main loop, and the portal's
/// SettingChanged signals come in bursts (a slider dragged, a script, a
/// flooding process) and in paced floods (twenty a second for as long as a
/// process likes). So a change asks for one idle turn of the loop, and the
/// style is applied there, once for what came in that turn, with the last
/// values; then a period starts in which changes are only recorded, and at
/// its end the style is applied once more, with the last values, if they
/// differ from what was applied. The periods of a flood grow
/// (`Settings.periods`: 250 ms, doubling up to 4 s), as each application
/// costs the app tens of milliseconds of CPU: a slider dragged still
/// follows at once, and a flood of any length costs a handful of
/// applications. A period that ends without a change starts them over, and
/// the next change is applied at once. A burst that ends where the last
/// application left the style applies nothing. The log lines of
/// applications are the shell's, within a LogBudgetMachine.
public struct AppearanceBurstMachine: Sendable, Equatable {
    public struct Settings: Sendable, Equatable {
        /// After an application, how long changes wait to be applied
        /// together: the first period of a flood, and how long they grow.
        public let periods: Backoff

        public init(periods: Backoff) {
            self.periods = periods
        }

        /// At most four applications in the first second, then fewer: a
        /// flood of twenty changes a second for ten seconds is applied
        /// seven times at most.
        public static let standard = Settings(periods: Backoff(first: .milliseconds(250), longest: .seconds(4)))
    }

    public struct State: Sendable, Equatable {
        /// An idle turn of the loop is asked for and not come yet.
        public var idleAskedFor = false
        /// A period runs since the last application; its timer is armed.
        public var periodRunning = false
        /// A change came while the period ran.
        public var changedInPeriod = false
        /// The periods of the flood so far, counting the one running: how
        /// long the next one is.
        public var periodsInARow = 0
        /// The style last applied; nil before the first.
        public var applied: DesktopAppearance?
    }

    public let settings: Settings
    private(set) var state = State()

    /// The style last applied, nil before the first: the shell names it in
    /// the log line that ends a period of held-back lines.
    public var lastApplied: DesktopAppearance? { state.applied }

    public init(settings: Settings = .standard) {
        self.settings = settings
    }

    public enum ChangedAction: Sendable, Equatable {
        /// Add the idle source: none is waiting already.
        case askForIdle
    }

    /// A setting changed; nil when an idle turn is asked for already, or a
    /// period runs (the change waits for its end).
    public mutating func changed() -> ChangedAction? {
        if state.periodRunning {
            state.changedInPeriod = true
            return nil
        }
        guard !state.idleAskedFor else { return nil }
        state.idleAskedFor = true
        return .askForIdle
    }

    public enum BecameIdleAction: Sendable, Equatable {
        /// Apply (and log, within the budget) this style, then arm the
        /// period's timer for this long.
        case apply(DesktopAppearance, thenWait: Duration)
    }

    /// The loop is idle after the changes of a turn (or the first reading
    /// is complete), with the style as it is now; nil when the last
    /// application left it so, or a period runs.
    public mutating func becameIdle(with appearance: DesktopAppearance) -> BecameIdleAction? {
        state.idleAskedFor = false
        if state.periodRunning {
            state.changedInPeriod = true
            return nil
        }
        guard appearance != state.applied else { return nil }
        let wait = startPeriod(applying: appearance)
        return .apply(appearance, thenWait: wait)
    }

    public enum PeriodEndedAction: Sendable, Equatable {
        /// Apply (and log, within the budget) this style, then arm the
        /// next, longer period's timer for this long.
        case apply(DesktopAppearance, thenWait: Duration)
        /// The changes of the period ended where the style was: nothing to
        /// apply, but the flood goes on; arm the next, longer period.
        case waitAgain(Duration)
    }

    /// The period's timer fired, with the style as it is now: what came in
    /// the period is applied, if it differs, and a longer period follows
    /// any change; nil when none came, and the next change is applied at
    /// once again.
    public mutating func periodEnded(with appearance: DesktopAppearance) -> PeriodEndedAction? {
        state.periodRunning = false
        guard state.changedInPeriod else {
            state.periodsInARow = 0
            return nil
        }
        state.changedInPeriod = false
        guard appearance != state.applied else { return .waitAgain(startPeriod(applying: nil)) }
        let wait = startPeriod(applying: appearance)
        return .apply(appearance, thenWait: wait)
    }

    /// Records the application (if any) and the new period; its length.
    private mutating func startPeriod(applying appearance: DesktopAppearance?) -> Duration {
        if let appearance { state.applied = appearance }
        state.periodRunning = true
        state.periodsInARow += 1
        return settings.periods.wait(afterFailures: state.periodsInARow)
    }
}
