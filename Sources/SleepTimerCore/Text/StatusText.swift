/// What the agent says of itself to its service manager (systemctl status).
public enum StatusText {
    /// "2 timers mirrored, 1 completion waiting".
    public static func summary(timers: Int, waitingCompletions: Int) -> String {
        let mirrored = timers == 1 ? "1 timer mirrored" : "\(timers) timers mirrored"
        switch waitingCompletions {
        case 0: return mirrored
        case 1: return "\(mirrored), 1 completion waiting"
        default: return "\(mirrored), \(waitingCompletions) completions waiting"
        }
    }
}
