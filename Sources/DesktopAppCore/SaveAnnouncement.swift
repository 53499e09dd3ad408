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
/// `(state, event) -> [action]`: the shell (AgentTimersWatch, the window)
/// feeds it the agent's news and carries the announcement out.
public struct SaveAnnouncement: Sendable, Equatable {
    /// How many completions are remembered as handled: enough for any
    /// night's timers, and bounded against a flood of signals.
    public static let rememberedCompletions = 64
    /// How many names of timers no longer listed are kept, for the same
    /// reasons; the listed timers' names are always kept.
    public static let rememberedNames = 64

    public enum Event: Sendable, Equatable {
        /// The agent's List: each timer's id with its baby's name (none when
        /// the agent is not on the bus).
        case timers([TimerName])
        /// CompletionFinished(timer_id, outcome, activity_id), and whether the
        /// app's window is shown as it arrives.
        case completionFinished(timerID: String, outcome: String, activityID: String, windowShown: Bool)
    }

    public enum Action: Sendable, Equatable {
        /// Announce the text on the window, politely (after what is being
        /// read).
        case announce(String)
    }

    /// A listed timer's id and its baby's name.
    public struct TimerName: Sendable, Equatable {
        public let timerID: String
        public let babyName: String

        public init(timerID: String, babyName: String) {
            self.timerID = timerID
            self.babyName = babyName
        }
    }

    public private(set) var names: [String: String] = [:]
    /// The named timers, first listed first: the order names are let go in.
    private var nameOrder: [String] = []
    /// The timers whose completion was handled, oldest first.
    public private(set) var handled: [String] = []

    public init() {}

    public mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .timers(let timers):
            for timer in timers {
                if names.updateValue(timer.babyName, forKey: timer.timerID) == nil { nameOrder.append(timer.timerID) }
            }
            let listed = Set(timers.map(\.timerID))
            let unlisted = nameOrder.filter { !listed.contains($0) }
            let excess = unlisted.count - Self.rememberedNames
            if excess > 0 {
                let forgotten = Set(unlisted.prefix(excess))
                forgotten.forEach { names[$0] = nil }
                nameOrder.removeAll { forgotten.contains($0) }
            }
            return []
        case .completionFinished(let timerID, let outcome, let activityID, let windowShown):
            // Only a sleep the platform saved as a new activity; a sleep
            // already saved elsewhere or a failure is not news of a save.
            guard outcome == SleepTimers1.CompletionOutcome.created.rawValue, !activityID.isEmpty, !timerID.isEmpty else { return [] }
            guard !handled.contains(timerID) else { return [] }
            handled.append(timerID)
            if handled.count > Self.rememberedCompletions { handled.removeFirst(handled.count - Self.rememberedCompletions) }
            guard windowShown, let name = names[timerID], !name.isEmpty else { return [] }
            return [.announce(Self.text(babyName: name))]
        }
    }

    /// The longest announcement, in characters: a name the agent accepts
    /// (64 characters) in the longest translation fits well within it; a
    /// translation gone wrong is cut rather than read on and on.
    public static let maximumCharacters = 160

    /// The words, in the reader's language, at most `maximumCharacters`.
    public static func text(babyName: String) -> String {
        // TRANSLATORS: Said by a screen reader when a sleep was saved from the desktop (a notification's Complete); {name} is a baby's name.
        bounded(tr("{name}'s sleep saved").filling(["name": babyName]))
    }

    /// The text as it is when it fits, else its first characters and "…".
    static func bounded(_ text: String) -> String {
        guard text.count > maximumCharacters else { return text }
        return String(text.prefix(maximumCharacters - 1)) + "…"
    }
}
