import AgentWorkflows
import DFLDBus
import SleepTimerCore
import SleepTimerStore

/// A timer as other apps see it: the dictionary of List and TimerChanged.
/// Display data only; the token never enters it.
public struct TimerView: Sendable, Equatable {
    public let stored: StoredTimer
    public let canComplete: Bool
    public let deepLink: DeepLink
    public let notification: NotificationStatus

    public init(stored: StoredTimer, now: Instant, deepLinkBase: DeepLinkBase, notification: NotificationStatus) {
        self.stored = stored
        canComplete = stored.canComplete(at: now)
        deepLink = stored.timer.deepLink(base: deepLinkBase)
        self.notification = notification
    }

    public var timer: MirroredTimer { stored.timer }

    public var dictionary: BusValue {
        .vardict([
            ("timer_id", .string(timer.id.string)),
            ("api_origin", .string(timer.scope.apiOrigin.description)),
            ("family_subject_id", .string(timer.scope.familySubjectID.string)),
            ("baby_id", .string(timer.babyID.string)),
            ("baby_name", .string(timer.babyName.text)),
            ("started_at_ms", .int64(timer.startedAt.millisecondsSince1970)),
            ("timezone", .string(timer.timeZone.identifier)),
            ("state", .string(stored.state.rawValue)),
            ("can_complete", .boolean(canComplete)),
            ("deep_link", .string(deepLink.url)),
            ("notification", .string(notification.rawValue)),
        ])
    }
}
