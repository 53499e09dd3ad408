import DFLDBus
import SleepTimerCore
import SleepTimersAPI

/// The desktop app, dreamsforlittles, on the bus through GApplication's
/// org.freedesktop.Application: what the link opener and the app's actions
/// call.
public enum AppService {
    public static let name = AppIdentity.appID
    public static let path = AppIdentity.appObjectPath
    public static let interface = ExternalInterface.Application.interface
    public static let open = ExternalInterface.Application.open
    public static let activate = ExternalInterface.Application.activate
    public static let activateAction = ExternalInterface.Application.activateAction
}
