/// The line GNOME Shell shows for the sandboxed app under Background Apps
/// (the background portal's SetStatus): which babies sleep and since when,
/// "Maya asleep since 9:40 PM · Leo since 10:05 PM". The portal refuses a
/// message longer than 96 characters (counted as code points), so the line
/// is fitted:
///
/// 1. every baby with its time, the earliest asleep first;
/// 2. else the first baby and how many more: "Maya and 2 others asleep";
/// 3. else (a very long name) that line with the name cut short, "…"
///    marking the cut; one baby alone keeps its time the same way.
///
/// It carries no elapsed time, so it changes only when a timer does.
public enum BackgroundStatusText {
    /// The longest message the portal takes.
    public static let limit = 96

    /// One sleeping baby: the name and the time it fell asleep, already
    /// written in the desktop's clock format.
    public struct Sleeper: Sendable, Equatable {
        public let name: String
        public let since: String

        public init(name: String, since: String) {
            self.name = name
            self.since = since
        }
    }

    /// The line for `sleepers` in the order given; empty for none (which
    /// clears the line).
    public static func line(_ sleepers: [Sleeper]) -> String {
        guard let first = sleepers.first else { return "" }
        let others = sleepers.count - 1
        if others == 0 {
            return fitted(name: first.name) { name in
                // TRANSLATORS: GNOME's Background Apps list, under the app's
                // name: a baby asleep since a time of day ("9:40 PM"). At
                // most 96 characters with the name.
                tr("{name} asleep since {time}").filling(["name": name, "time": first.since])
            }
        }
        let each = [asleepSince(first)] + sleepers.dropFirst().map { sleeper in
            // TRANSLATORS: GNOME's Background Apps list: a further baby
            // after "Maya asleep since 9:40 PM · ", asleep since {time}.
            tr("{name} since {time}").filling(["name": sleeper.name, "time": sleeper.since])
        }
        let all = each.joined(separator: " · ")
        if fits(all) { return all }
        return fitted(name: first.name) { name in
            // TRANSLATORS: GNOME's Background Apps list, when the babies
            // with their times do not fit in 96 characters: {name} and
            // {count} more babies asleep.
            trn("{name} and {count} other asleep", "{name} and {count} others asleep", count: others)
                .filling(["name": name, "count": String(others)])
        }
    }

    private static func asleepSince(_ sleeper: Sleeper) -> String {
        tr("{name} asleep since {time}").filling(["name": sleeper.name, "time": sleeper.since])
    }

    /// Code points, as the portal counts them (g_utf8_strlen).
    public static func length(_ text: String) -> Int { text.unicodeScalars.count }

    static func fits(_ text: String) -> Bool { length(text) <= limit }

    /// `make(name)`, the name cut short (whole characters, "…" after) until
    /// the line fits.
    private static func fitted(name: String, _ make: (String) -> String) -> String {
        var line = make(name)
        var kept = Array(name)
        while !fits(line), !kept.isEmpty {
            kept.removeLast()
            line = make(String(kept) + "…")
        }
        return line
    }
}
