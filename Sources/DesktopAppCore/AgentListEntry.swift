import SleepTimerCore

/// A timer of the agent's List as the app believes it: held to the rules
/// the agent's Mirror holds it to (a timer id, and a baby's name that
/// `BabyName(validating:)` accepts, bounded and free of control, line-break
/// and bidirectional characters), or not at all.
///
/// Whatever owns the agent's bus name answers List: before the agent
/// starts, after it stops or fails on its configuration, another program of
/// the session can take the name. A timer whose id or name the agent itself
/// would have refused is not the agent's: it is neither announced
/// (SaveAnnouncementMachine) nor keeps the hidden app running (BackgroundMachine).
public struct AgentListEntry: Sendable, Equatable {
    public let timerID: String
    public let timer: ListedTimer

    /// Nil when the agent's Mirror would refuse the id or the name.
    public init?(timerID: String, babyName: String, state: String) {
        guard TimerID(timerID) != nil, (try? BabyName(validating: babyName)) != nil else { return nil }
        self.timerID = timerID
        timer = ListedTimer(babyName: babyName, state: state)
    }

    /// The entries of one List that pass, in its order.
    public static func accepted(_ entries: [(timerID: String, babyName: String, state: String)]) -> [AgentListEntry] {
        entries.compactMap { AgentListEntry(timerID: $0.timerID, babyName: $0.babyName, state: $0.state) }
    }
}
