import SleepTimerCore

/// When a bridge that ended starts again. A bridge that ran for a while is
/// restarted at once; one that keeps ending soon after its start waits
/// longer each time (doubling up to half a minute), so a bridge that cannot
/// run does not spin.
public struct BridgeRestartMachine: Sendable, Equatable {
    public struct Settings: Sendable, Equatable {
        /// A run at least this long counts as healthy.
        public var healthyRun: Duration

        public init(healthyRun: Duration = .seconds(30)) {
            self.healthyRun = healthyRun
        }
    }

    /// The waits after the second ending in a row, and on.
    public static let backoff = Backoff(first: .milliseconds(250), longest: .seconds(30))

    public struct State: Sendable, Equatable {
        /// Endings in a row since the last healthy run (which counts as one).
        public fileprivate(set) var endings = 0

        /// No ending yet: the app's start.
        public init() {}
    }

    public let settings: Settings
    private(set) var state = State()

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// The bridge ended after a run that lasted `run`: start it again once
    /// the returned delay has passed (zero: at once).
    public mutating func bridgeEnded(lasting run: Duration) -> Duration {
        if run >= settings.healthyRun {
            state.endings = 0
        }
        state.endings += 1
        return state.endings == 1 ? .zero : Self.backoff.wait(afterFailures: state.endings - 1)
    }
}
