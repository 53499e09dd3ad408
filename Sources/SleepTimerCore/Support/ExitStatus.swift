/// The exit statuses of all the programs, in one list, after sysexits.h
/// where one fits: a service manager, a script or a test reads the same
/// number for the same reason from each of them.
public enum ExitStatus {
    /// Done as asked.
    public static let success: Int32 = 0
    /// What was asked was refused or failed: dfl-sleepctl's command the
    /// agent refused, the agent's bus name lost to another.
    public static let failure: Int32 = 1
    /// The app's command line names a link the app refuses (GApplication's
    /// status for a command line it cannot act on).
    public static let refusedCommandLine: Int32 = 2
    /// EX_USAGE: an argument the program does not know.
    public static let usage: Int32 = 64
    /// EX_UNAVAILABLE: a service it needs (the session bus, the agent) is
    /// not there.
    public static let unavailable: Int32 = 69
    /// EX_TEMPFAIL: it may work later, e.g. once another dfl-sleep-agent of
    /// the user (another session bus) no longer holds the store.
    public static let temporaryFailure: Int32 = 75
    /// EX_CONFIG: the configuration file cannot be used.
    public static let configuration: Int32 = 78
}
