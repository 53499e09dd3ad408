import EventLoop
import SleepTimerCore

/// The one timer the agent's schedule arms: the loop's in the agent, one a
/// test fires by hand in the shell's tests.
public protocol WakeAlarm: AnyObject {
    /// Calls `fire` once, at `moment` by the wall clock; replaces whatever
    /// was set before.
    func set(at moment: Instant, _ fire: @escaping () -> Void)
    func cancel()
}

/// The alarm on the main loop: one timeout source for the time left until
/// the moment.
public final class LoopAlarm: WakeAlarm {
    private let loop: MainLoop
    private let clock: any WallClock
    private var source: MainLoop.Source?

    public init(loop: MainLoop, clock: any WallClock) {
        self.loop = loop
        self.clock = clock
    }

    /// A pending timeout goes with the alarm: the loop may outlive it.
    deinit { source?.cancel() }

    public func set(at moment: Instant, _ fire: @escaping () -> Void) {
        cancel()
        let wait = UInt32(clamping: max(0, moment.milliseconds(since: clock.now())))
        source = loop.after(milliseconds: wait) { [weak self] in
            self?.source = nil
            fire()
            return .remove
        }
    }

    public func cancel() {
        source?.cancel()
        source = nil
    }
}

@available(*, unavailable, message: "The alarm is confined to its main loop's thread.")
extension LoopAlarm: Sendable {}

/// The agent's alarm in the process: on the wall clock, so that what came
/// due during a suspend fires on resume, and a set clock is noticed.
extension WallClockAlarm: WakeAlarm {
    public func set(at moment: Instant, _ fire: @escaping () -> Void) {
        set(atMillisecondsSince1970: moment.millisecondsSince1970, fire)
    }
}
