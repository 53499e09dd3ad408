import SleepTimerCore
import SleepTimersAPI

/// What the window says aloud when a sleep is saved from the desktop (a
/// notification's Complete, the panel, dfl-sleepctl): a parent who cannot
/// see the notification close hears "Maya's sleep saved" from the app's
/// window instead, once.
///
/// The agent's CompletionFinished names the timer only by its id, so the
/// baby's name comes from the agent's Lists. A name is kept after its timer
/// leaves the list: a refresh from another device can reconcile the timer
/// away while its completion is still on its way to the platform, and the
/// completion then finishes after the List that forgot it. A completion
/// whose timer the app never listed, or whose baby has no name, is not
/// announced: there is nothing true to say about whose sleep it was.
/// Nothing is said while the window is hidden (nobody is looking at it, and
/// a screen reader would read it out of nowhere), nor later for it; GTK
/// 4.18 drops an announcement from a hidden window too, but that is not a
/// promise of its.
///
/// The shell (AgentTimersWatch, the window) tells it the agent's news and
/// carries the announcement out; its words are `SaveAnnouncementText`'s.
public struct SaveAnnouncementMachine: Sendable, Equatable {
    /// How many completions are remembered as handled: enough for any
    /// night's timers, and bounded against a flood of signals.
    public static let rememberedCompletions = 64
    /// How many names of timers no longer listed are kept, for the same
    /// reasons; the listed timers' names are always kept.
    public static let rememberedNames = 64

    /// A listed timer's id and its baby's name.
    public struct TimerName: Sendable, Equatable {
        public let timerID: String
        public let babyName: String

        public init(timerID: String, babyName: String) {
            self.timerID = timerID
            self.babyName = babyName
        }
    }

    public struct State: Sendable, Equatable {
        /// Each known timer's baby's name, by timer id.
        public var names: [String: String] = [:]
        /// The named timers, first listed first: the order names are let go in.
        public var nameOrder: [String] = []
        /// The timers whose completion was handled, oldest first.
        public var handled: [String] = []
    }

    private(set) var state = State()

    public init() {}

    /// The agent's List answered: each timer's id with its baby's name
    /// (none when the agent is not on the bus).
    public mutating func listed(_ timers: [TimerName]) {
        for timer in timers {
            if state.names.updateValue(timer.babyName, forKey: timer.timerID) == nil { state.nameOrder.append(timer.timerID) }
        }
        let listed = Set(timers.map(\.timerID))
        let unlisted = state.nameOrder.filter { !listed.contains($0) }
        let excess = unlisted.count - Self.rememberedNames
        if excess > 0 {
            let forgotten = Set(unlisted.prefix(excess))
            forgotten.forEach { state.names[$0] = nil }
            state.nameOrder.removeAll { forgotten.contains($0) }
        }
    }

    public enum CompletionFinishedAction: Sendable, Equatable {
        /// Announce the text on the window, politely (after what is being
        /// read).
        case announce(String)
    }

    /// The agent's CompletionFinished(timer_id, outcome, activity_id), and
    /// whether the app's window is shown as it arrives; nil when there is
    /// nothing to say.
    public mutating func completionFinished(timerID: String, outcome: String, activityID: String, windowShown: Bool)
        -> CompletionFinishedAction?
    {
        // Only a sleep the platform saved as a new activity; a sleep
        // already saved elsewhere or a failure is not news of a save.
        guard outcome == SleepTimers1.CompletionOutcome.created.rawValue, !activityID.isEmpty, !timerID.isEmpty else { return nil }
        guard !state.handled.contains(timerID) else { return nil }
        state.handled.append(timerID)
        if state.handled.count > Self.rememberedCompletions {
            state.handled.removeFirst(state.handled.count - Self.rememberedCompletions)
        }
        guard windowShown, let name = state.names[timerID], !name.isEmpty else { return nil }
        return .announce(SaveAnnouncementText.sleepSaved(babyName: name))
    }
}
