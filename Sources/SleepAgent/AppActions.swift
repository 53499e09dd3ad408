import AgentWorkflows
import DFLDBus
import SleepTimerCore

/// The desktop app's GApplication actions, through
/// org.freedesktop.Application.ActivateAction on com.dreamsforlittles.DreamsForLittles,
/// sent as AppActionRule says: `quit` (the panel's Quit item) to a running
/// app only; `background` (a token due for renewal with no bridge to renew
/// it) may start the app by D-Bus activation, and no window shows.
public final class AppActions {
    public typealias Action = AppActionRule.AppAction

    public static var busName: String { AppService.name }

    let connection: BusConnection
    let log: any LogSink

    public init(connection: BusConnection, log: any LogSink) {
        self.connection = connection
        self.log = log
    }

    public func activate(_ action: Action) {
        var call = Message.methodCall(
            destination: AppService.name, path: AppService.path, interface: AppService.interface,
            member: AppService.activateAction)
            .append(.string(action.rawValue), .array(elementSignature: "v", []), .vardict([]))
        switch AppActionRule.delivery(of: action) {
        case .runningAppOnly: call = call.withoutAutoStart()
        case .startingTheApp: break
        }
        connection.call(call) { [log] result in
            switch result {
            case .success: log.log(.info, "Asked the app to \(action == .quit ? "quit" : "run in the background") through \(AppService.name).")
            case .failure(let error): log.log(.notice, "The app's \(action.rawValue) action failed: \(error.message)")
            }
        }
    }
}

@available(*, unavailable, message: "Bound to the agent's loop, as its connection is.")
extension AppActions: Sendable {}
