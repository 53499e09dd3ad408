import DFLDBus

/// The desktop app, dreamsforlittles, on the bus through GApplication's
/// org.freedesktop.Application: what the link opener and the app's actions
/// call.
public enum AppService {
    public static let name = "com.dreamsforlittles.App"
    public static let path = "/com/dreamsforlittles/App"
    public static let interface = ExternalInterface.Application.interface
    public static let open = ExternalInterface.Application.open
    public static let activate = ExternalInterface.Application.activate
    public static let activateAction = ExternalInterface.Application.activateAction
}
