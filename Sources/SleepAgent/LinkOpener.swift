import SleepTimerCore

/// Opens a deep link in the app: the agent's port, which the desktop's way
/// (LinkOpening's DeepLinkOpener) fills, and a recording in the shell's tests.
public protocol LinkOpener: AnyObject {
    /// `activationToken` comes from the notification server when the user
    /// clicked, so that the app may take the focus.
    func open(_ link: DeepLink, activationToken: String?)
    /// A reloaded configuration: the opener it names, if any, and the web
    /// app's origin.
    func reconfigure(_ configuration: Configuration)
}
