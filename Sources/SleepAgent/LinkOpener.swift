import SleepTimerCore

/// Opens a deep link in the app: the desktop's way in the agent
/// (DeepLinkOpener), a recording in the shell's tests.
public protocol LinkOpener: AnyObject {
    /// `activationToken` comes from the notification server when the user
    /// clicked, so that the app may take the focus.
    func open(_ link: DeepLink, activationToken: String?)
    /// A reloaded configuration: the opener it names, if any, and the web
    /// app's origin.
    func reconfigure(_ configuration: Configuration)
}

extension DeepLinkOpener: LinkOpener {
    public func reconfigure(_ configuration: Configuration) {
        configuredProgram = configuration.urlOpener
        webOrigin = configuration.webOrigin
    }
}
