import SleepTimerCore

/// Every sentence the panel indicator shows, in one place, as whole
/// sentences with named placeholders (`{name}`, `{elapsed}`, `{duration}`):
/// a translation replaces a whole template, never a fragment glued to
/// another, so word order stays the translator's.
public enum IndicatorText {
    public static let appName = "Dreams for Littles"
    public static let openApp = "Open Dreams for Littles"

    /// A tooltip line for a running timer.
    public static let asleepFor = "{name} asleep · {elapsed}"
    /// The same without the elapsed time: the item's title, which does not
    /// change every minute.
    public static let asleep = "{name} asleep"
    public static let completeSleep = "Complete {name}'s sleep"
    public static let openSleep = "Open {name}'s sleep"
    public static let savingSleep = "Saving {name}'s sleep…"
    public static let savingWhenOnline = "{name}'s sleep will save when you are back online"
    public static let sleepSaved = "{name}'s sleep saved · {duration}"
    public static let couldNotSave = "Couldn't save {name}'s sleep. Open the app to finish"
    /// Joins the titles of several timers into the item's one-line title.
    public static let titleSeparator = ", "

    /// `template` with each `{key}` replaced by its value. Values are
    /// inserted once, never scanned again, so a baby named "{elapsed}" stays
    /// "{elapsed}".
    public static func fill(_ template: String, _ values: [String: String]) -> String {
        var result = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            let afterOpen = rest.index(after: open)
            guard let close = rest[afterOpen...].firstIndex(of: "}"),
                let value = values[String(rest[afterOpen..<close])]
            else {
                result.append("{")
                rest = rest[afterOpen...]
                continue
            }
            result += value
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }
}
