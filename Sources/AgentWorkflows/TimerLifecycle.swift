import SleepTimerCore

/// When a mirrored timer leaves the desktop by itself: its token expired
/// and no recorded completion still needs it. A pending completion keeps
/// its timer until the completion ends, since it records a click.
public enum TimerLifecycle {
    public struct Decision: Sendable, Equatable {
        /// Timers to drop now, in id order.
        public var expired: [TimerID]
        /// The next moment a timer expires; nil when none will.
        public var wakeAt: Instant?
    }

    public static func decide<Timers: Sequence<StoredTimer>>(_ timers: Timers, now: Instant) -> Decision {
        var expired: [TimerID] = []
        var next: Instant?
        for stored in timers where stored.completionState != .pending {
            let expiry = stored.timer.tokenExpiresAt
            if expiry <= now {
                expired.append(stored.timer.id)
            } else {
                next = min(next ?? expiry, expiry)
            }
        }
        return Decision(expired: expired.sorted(), wakeAt: next)
    }
}
