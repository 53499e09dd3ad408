/// Which of the desktop app's GApplication actions (reached through
/// org.freedesktop.Application.ActivateAction on com.dreamsforlittles.DreamsForLittles)
/// may start the app by D-Bus activation. Quit is for a running app only:
/// one that started the app would bring back, windowless, the app the
/// person just ended, and with it the renewals Quit was meant to stop.
/// `background` is there to start it (BackgroundLaunchMachine says when).
public enum AppActionRule {
    /// The app's actions the agent asks for.
    public enum AppAction: String, Sendable, CaseIterable {
        /// The panel's "Quit Dreams for Littles".
        case quit
        /// A token due with nothing to renew it, or timers brought back
        /// after a reboot: the app runs without a window.
        case background
    }

    /// How the call is sent.
    public enum Delivery: Sendable, Equatable {
        /// D-Bus activation may start the app for it.
        case startingTheApp
        /// Only a running app gets it; none running, the call fails and
        /// nothing starts.
        case runningAppOnly
    }

    public static func delivery(of action: AppAction) -> Delivery {
        switch action {
        case .quit: .runningAppOnly
        case .background: .startingTheApp
        }
    }
}
