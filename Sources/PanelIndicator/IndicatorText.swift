import SleepTimerCore
import SleepTimersAPI

/// Every sentence the panel indicator shows, in one place: whole sentences
/// with named placeholders, translated before they are filled, so that word
/// order stays the translator's.
public enum IndicatorText {
    /// The app's name, a brand: the same in every language.
    public static let appName = AppIdentity.name

    // TRANSLATORS: The entry of the panel icon's menu after the timers.
    public static var openApp: String { tr("Open Dreams for Littles") }
    // TRANSLATORS: A panel menu item, shown while the app runs: it ends the app even with its window closed.
    public static var quitApp: String { tr("Quit Dreams for Littles") }

    /// A tooltip line for a running timer: "Maya asleep · 1 h 37 min".
    public static func asleepFor(name: String, elapsed: String) -> String {
        // TRANSLATORS: A line of the panel icon's tooltip: {name} is the
        // baby's name, {elapsed} how long the sleep has lasted ("1 h 37 min").
        // Short, as on a phone's lock screen; prefer a phrasing without gender.
        tr("{name} asleep · {elapsed}").filling(["name": name, "elapsed": elapsed])
    }

    /// The same without the elapsed time: the item's title, which does not
    /// change every minute.
    public static func asleep(name: String) -> String {
        // TRANSLATORS: The panel icon's title while a baby sleeps.
        tr("{name} asleep").filling(["name": name])
    }

    public static func completeSleep(name: String) -> String {
        // TRANSLATORS: A menu entry of the panel icon: ends the sleep now and saves it.
        tr("Complete {name}'s sleep").filling(["name": name])
    }

    public static func openSleep(name: String) -> String {
        // TRANSLATORS: A menu entry of the panel icon: opens the app at the sleep.
        tr("Open {name}'s sleep").filling(["name": name])
    }

    public static func savingSleep(name: String) -> String {
        tr("Saving {name}'s sleep…").filling(["name": name])
    }

    public static func savingWhenOnline(name: String) -> String {
        tr("{name}'s sleep will save when you are back online").filling(["name": name])
    }

    public static func sleepSaved(name: String, duration: String) -> String {
        // TRANSLATORS: {duration} is how long the sleep lasted ("1 h 23 min").
        tr("{name}'s sleep saved · {duration}").filling(["name": name, "duration": duration])
    }

    public static func couldNotSave(name: String) -> String {
        tr("Couldn't save {name}'s sleep. Open the app to finish").filling(["name": name])
    }

    /// Joins the titles of several timers into the item's one-line title.
    // TRANSLATORS: Joins the titles of several babies' sleeps in the panel
    // icon's title: "Maya asleep, Leo asleep".
    public static var titleSeparator: String { tr(", ") }
}
