/// The desktop app, dreamsforlittles, on the bus through GApplication's
/// org.freedesktop.Application: what the link opener and the app's actions
/// call.
enum AppService {
    static let name = "com.dreamsforlittles.App"
    static let path = "/com/dreamsforlittles/App"
    static let interface = "org.freedesktop.Application"
    static let open = "Open"
    static let activate = "Activate"
    static let activateAction = "ActivateAction"
    /// A call may start the app (D-Bus activation) before it answers.
    static let timeoutMilliseconds: Int32 = 25_000
}
