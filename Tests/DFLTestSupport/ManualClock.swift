import Synchronization
import SleepTimerCore

/// A wall clock the test moves by hand, so that rules about expiry and
/// start times can be tested at any moment without waiting.
public final class ManualClock: WallClock {
    private let current: Mutex<Instant>

    public init(_ start: Instant = Fixtures.now) { current = Mutex(start) }

    public func now() -> Instant { current.withLock { $0 } }

    public func advance(milliseconds: Int64) { current.withLock { $0 = $0.adding(milliseconds: milliseconds) } }
}
