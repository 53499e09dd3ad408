import AgentWorkflows
import DFLDBus
import SleepTimerCore
import SleepTimerStore
import SleepTimersAPI

/// A timer as other apps see it: the dictionary of List and TimerChanged.
/// Display data only; the token never enters it.
public struct TimerView: Sendable, Equatable {
    public let stored: StoredTimer
    /// What the desktop says of it now (a running timer whose token ran
    /// out reads token-expired).
    public let state: TimerState
    public let canComplete: Bool
    public let deepLink: DeepLink
    public let notification: NotificationStatus

    public init(stored: StoredTimer, now: Instant, deepLinkBase: DeepLinkBase, notification: NotificationStatus) {
        self.stored = stored
        state = stored.state(at: now)
        canComplete = stored.canComplete(at: now)
        deepLink = stored.timer.deepLink(base: deepLinkBase)
        self.notification = notification
    }

    public var timer: MirroredTimer { stored.timer }

    /// Every key of the contract, in its order.
    public var dictionary: BusValue {
        .vardict(SleepTimers1.TimerKey.allCases.map { key in (key.name, value(key)) })
    }

    private func value(_ key: SleepTimers1.TimerKey) -> BusValue {
        switch key {
        case .timerID: .string(timer.id.string)
        case .apiOrigin: .string(timer.scope.apiOrigin.description)
        case .familySubjectID: .string(timer.scope.familySubjectID.string)
        case .babyID: .string(timer.babyID.string)
        case .babyName: .string(timer.babyName.text)
        case .startedAt: .int64(timer.startedAt.millisecondsSince1970)
        case .timeZone: .string(timer.timeZone.identifier)
        case .state: .string(state.rawValue)
        case .canComplete: .boolean(canComplete)
        case .deepLink: .string(deepLink.url)
        case .notification: .string(notification.rawValue)
        }
    }
}
