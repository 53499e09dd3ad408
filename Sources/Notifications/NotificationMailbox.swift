import SleepTimerCore
import Synchronization

/// What the agent's thread asks of the libnotify thread. Each notification
/// object is known by its timer's id and an epoch: a new object for the
/// same id gets a new epoch, so that an old object's late news is told
/// apart from the current one's.
enum NotificationRequest: Sendable, Equatable {
    /// Post, or update in place the object of this epoch; a new object
    /// replaces the server's `replacing` id when it is not 0.
    case show(TimerID, epoch: UInt64, NotificationContent, replacing: UInt32)
    /// Close the object of this id if it is of this epoch or older.
    case close(TimerID, epoch: UInt64)
    /// Forget it, without closing, if it is of this epoch or older.
    case drop(TimerID, epoch: UInt64)
    /// Forget every object.
    case dropAll

    var timerID: TimerID? {
        switch self {
        case .show(let id, _, _, _), .close(let id, _), .drop(let id, _): return id
        case .dropAll: return nil
        }
    }
}

/// What the libnotify thread tells the agent's thread.
enum NotificationReport: Sendable, Equatable {
    case shown(TimerID, epoch: UInt64, notificationID: UInt32)
    case showFailed(TimerID, epoch: UInt64, reason: String)
    case closed(TimerID, epoch: UInt64, reason: UInt32)
    case actionInvoked(TimerID, epoch: UInt64, NotificationAction, activationToken: String?)
}

/// Requests waiting for the libnotify thread. The queue is bounded by
/// construction: a request that makes an earlier one pointless replaces it
/// (a newer text for the same object, a close that covers an older close),
/// so however long a hung server stalls the thread, at most one show, one
/// close and one drop per timer wait, behind at most one dropAll.
struct RequestQueue: Sendable, Equatable {
    private(set) var requests: [NotificationRequest] = []

    mutating func append(_ request: NotificationRequest) {
        switch request {
        case .dropAll:
            requests = [.dropAll]
        case .show(let id, let epoch, let content, _):
            if let index = requests.firstIndex(where: { if case .show(id, epoch, _, _) = $0 { true } else { false } }),
                case .show(_, _, _, let replacing) = requests[index]
            {
                requests[index] = .show(id, epoch: epoch, content, replacing: replacing)
            } else {
                requests.append(request)
            }
        case .close(let id, let epoch), .drop(let id, let epoch):
            // Its object (and any older one) will never be shown now.
            requests.removeAll { if case .show(id, let shown, _, _) = $0 { shown <= epoch } else { false } }
            // An earlier request of the same kind for the same timer is
            // covered by this one, which reaches every older epoch; it keeps
            // its place, ahead of any newer show.
            if let index = requests.firstIndex(where: { $0.isSameKind(as: request, for: id) }) {
                requests[index] = request
            } else {
                requests.append(request)
            }
        }
    }

    mutating func takeAll() -> [NotificationRequest] {
        defer { requests = [] }
        return requests
    }
}

extension NotificationRequest {
    fileprivate func isSameKind(as other: NotificationRequest, for id: TimerID) -> Bool {
        switch (self, other) {
        case (.close(id, _), .close), (.drop(id, _), .drop): return true
        default: return false
        }
    }
}

/// A queue shared by two threads under a lock.
final class Mailbox<Queue: Sendable>: Sendable {
    private let queue: Mutex<Queue>

    init(_ queue: Queue) { self.queue = Mutex(queue) }

    func with<Result>(_ body: (inout Queue) -> Result) -> Result {
        queue.withLock { body(&$0) }
    }
}
