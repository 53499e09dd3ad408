/// The desktop app, dreamsforlittles, on the bus through GApplication's
/// org.freedesktop.Application: what the link opener and the app's actions
/// call.
public enum AppService {
    public static let name = "com.dreamsforlittles.App"
    public static let path = "/com/dreamsforlittles/App"
    public static let interface = "org.freedesktop.Application"
    public static let open = "Open"
    public static let activate = "Activate"
    public static let activateAction = "ActivateAction"
    /// A call may start the app (D-Bus activation) before it answers.
    public static let timeoutMilliseconds: Int32 = 25_000
}
