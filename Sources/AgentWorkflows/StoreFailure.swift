import SleepTimerCore

/// What every workflow does when the store could not take a write (disk
/// full, I/O error): it holds what failed back this long and tries again,
/// so that a failing disk does not turn into a tight loop.
public enum StoreFailure {
    public static let hold: Duration = .seconds(30)
}
