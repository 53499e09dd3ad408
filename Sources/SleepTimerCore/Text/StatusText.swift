/// What the agent says of itself to its service manager (systemctl status).
public enum StatusText {
    /// "2 timers mirrored, 1 completion waiting".
    public static func summary(timers: Int, waitingCompletions: Int) -> String {
        // TRANSLATORS: The agent's status line in "systemctl --user status":
        // how many Sleep timers it shows on this desktop.
        let mirrored = trn("{count} timer mirrored", "{count} timers mirrored", count: timers)
            .filling(["count": String(timers)])
        guard waitingCompletions > 0 else { return mirrored }
        // TRANSLATORS: The status line when completed sleeps wait to be sent
        // to the app's server: {timers} is "2 timers mirrored".
        let waiting = trn("{timers}, {count} completion waiting", "{timers}, {count} completions waiting",
                          count: waitingCompletions)
        return waiting.filling(["timers": mirrored, "count": String(waitingCompletions)])
    }
}
