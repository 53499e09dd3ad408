/// How long a method call on the bus waits for its answer, once for every
/// caller (the agent's libdbus and the app's GIO). Every call's timeout is
/// one of these, converted by `milliseconds(_:)`: no call is given a number
/// of milliseconds of its own (BusNamesTests' BusCallSourceTests hold that).
public enum BusCall {
    /// libdbus's own default, long enough for a call that D-Bus activation
    /// must start the callee for.
    public static let timeout: Duration = .seconds(25)

    /// Shorter: a synchronous call holds the app's main loop (its last notice's questions to the bus and the server).
    public static let quick: Duration = .seconds(2)

    /// Shorter: the page waits on the bridge's Version question, asked of an agent a Ping has just found running.
    public static let agentQuestion: Duration = .seconds(5)

    /// Shorter: the page or the window waits on it, yet it may start its callee (the bridge's agent, the portal).
    public static let waitedOn: Duration = .seconds(10)

    /// Any of these as the milliseconds libdbus and GIO take: the part below
    /// a millisecond dropped, clamped to Int32.
    public static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return seconds < 0 ? .min : .max }
        return Int32(clamping: whole + attoseconds / 1_000_000_000_000_000)
    }

    /// `timeout` as libdbus and GIO take it.
    public static var timeoutMilliseconds: Int32 { milliseconds(timeout) }
}
