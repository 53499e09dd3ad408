import SleepTimerCore

/// How many timers the agent holds. A family has a few babies and three
/// timer types, only one of which (Sleep) is mirrored, so these limits are
/// far above any real use; they stop a caller on the session bus from
/// making the agent hold (and tick for) thousands.
public struct TimerLimitRule: Sendable, Equatable {
    public var perFamily: Int
    public var total: Int

    public init(perFamily: Int = 16, total: Int = 64) {
        self.perFamily = perFamily
        self.total = total
    }

    /// Why `timer` may not be added to `held`, in words for the caller; nil
    /// when it may. A timer already held may always change.
    public func refusal<Timers: Collection<StoredTimer>>(of timer: MirroredTimer, held: Timers) -> String? {
        guard !held.contains(where: { $0.timer.id == timer.id }) else { return nil }
        if held.count >= total {
            return "The desktop already mirrors \(total) timers, its limit; finish or remove some in the app first."
        }
        let family = held.lazy.filter { $0.timer.scope == timer.scope }.count
        if family >= perFamily {
            return "The desktop already mirrors \(perFamily) timers of this family, its limit; finish or remove some in the app first."
        }
        return nil
    }
}
