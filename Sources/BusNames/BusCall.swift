/// How long a method call on the bus waits for its answer, once for every
/// caller (the agent's libdbus and the app's GIO): libdbus's own default,
/// long enough for a call that D-Bus activation must start the callee for.
public enum BusCall {
    public static let timeout: Duration = .seconds(25)

    /// `timeout` as libdbus and GIO take it.
    public static var timeoutMilliseconds: Int32 {
        let (seconds, attoseconds) = timeout.components
        return Int32(seconds * 1000 + attoseconds / 1_000_000_000_000_000)
    }
}
