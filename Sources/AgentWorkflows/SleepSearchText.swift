import SleepTimerCore

/// The words of the desktop's search (GNOME Shell's overview, KRunner):
/// what a found Sleep reads, and the words besides a baby's name that find
/// every running Sleep.
public enum SleepSearchText {
    /// A result's title: "Maya asleep", as the panel's title says it.
    public static func name(baby: String) -> String {
        // TRANSLATORS: A running Sleep found in the desktop's search
        // (GNOME's overview, KRunner), as the panel's title says it.
        tr("{name} asleep").filling(["name": baby])
    }

    /// A result's second line: how long the baby has slept, "1 h 37 min".
    public static func description(startedAt: Instant, now: Instant) -> String {
        DisplayText.elapsed(from: startedAt, to: now)
    }

    /// KRunner's button on a result that can be completed: the
    /// notification's Complete.
    public static var completeAction: String {
        trc("notification action", "Complete")
    }

    /// The English words, always understood, and those of the reader's
    /// language.
    public static var searchWords: [String] {
        let english = "sleep asleep sleeping"
        // TRANSLATORS: Words, separated by spaces, that find every running
        // Sleep when typed (or begun) in the desktop's search (GNOME's
        // overview, KRunner), besides the baby's name. Give as many as
        // people would type in your language ("schlaf schläft schlafen");
        // the English words work as well.
        let translated = trc("search words", "sleep asleep sleeping")
        return (english + " " + translated).split(separator: " ").map(String.init)
    }
}
