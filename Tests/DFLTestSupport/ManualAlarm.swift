import SleepTimerCore

/// An alarm a test fires by hand, after moving its clock: the agent's
/// schedule is then walked through hours of wake-ups in no time. (The
/// agent's tests make it its WakeAlarm; this target knows no agent.)
public final class ManualAlarm {
    public private(set) var moment: Instant?
    private var fire: (() -> Void)?

    public init() {}

    public func set(at moment: Instant, _ fire: @escaping () -> Void) {
        self.moment = moment
        self.fire = fire
    }

    public func cancel() {
        moment = nil
        fire = nil
    }

    /// Moves `clock` to the armed moment and fires; false when nothing was
    /// armed.
    @discardableResult
    public func fire(advancing clock: ManualClock) -> Bool {
        guard let moment, let fire else { return false }
        let wait = moment.milliseconds(since: clock.now())
        if wait > 0 { clock.advance(milliseconds: wait) }
        self.moment = nil
        self.fire = nil
        fire()
        return true
    }
}
