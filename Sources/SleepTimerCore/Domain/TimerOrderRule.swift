/// The one order timers are listed in wherever several are shown or
/// handed out together (the D-Bus List, the panel's menu, the line in
/// Background Apps): the earliest started first, so the baby asleep longest
/// leads; two started at the same moment by id, so that the order never
/// changes between two looks.
public enum TimerOrderRule {
    /// Whether the timer started at `startedAt` with id `id` comes before
    /// the other.
    public static func precedes(
        startedAt: Instant, id: TimerID, before otherStartedAt: Instant, _ otherID: TimerID
    ) -> Bool {
        (startedAt, id) < (otherStartedAt, otherID)
    }

    public static func precedes(_ timer: MirroredTimer, _ other: MirroredTimer) -> Bool {
        precedes(startedAt: timer.startedAt, id: timer.id, before: other.startedAt, other.id)
    }

    public static func precedes(_ timer: StoredTimer, _ other: StoredTimer) -> Bool {
        precedes(timer.timer, other.timer)
    }
}
