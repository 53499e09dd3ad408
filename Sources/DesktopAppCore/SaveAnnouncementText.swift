import SleepTimerCore

/// The words the window says when a sleep is saved from the desktop
/// (`SaveAnnouncementMachine` decides when), bounded so that a translation
/// gone wrong is cut rather than read on and on.
public enum SaveAnnouncementText {
    /// The longest announcement, in characters: a name the agent accepts
    /// (64 characters) in the longest translation fits well within it; a
    /// translation gone wrong is cut rather than read on and on.
    public static let maximumCharacters = 160

    /// The words, in the reader's language, at most `maximumCharacters`.
    public static func sleepSaved(babyName: String) -> String {
        // TRANSLATORS: Said by a screen reader when a sleep was saved from the desktop (a notification's Complete); {name} is a baby's name.
        bounded(tr("{name}'s sleep saved").filling(["name": babyName]))
    }

    /// The text as it is when it fits, else its first characters and "…".
    static func bounded(_ text: String) -> String {
        guard text.count > maximumCharacters else { return text }
        return String(text.prefix(maximumCharacters - 1)) + "…"
    }
}
