/// The desktop app's GApplication actions (`app.NAME`), named once for the
/// app, which registers them, and for those that call them: the agent
/// (through org.freedesktop.Application.ActivateAction) and, in a Flatpak,
/// the notification portal, whose buttons name an exported action and a
/// target.
public enum AppActionName: String, Sendable, CaseIterable {
    /// Quits the app (the panel's Quit item); no parameter.
    case quit
    /// Starts the app with its window hidden (a token is due for renewal
    /// and no bridge answers); no parameter.
    case background
    /// Completes a timer; the parameter is the timer's id (`s`). Shows no
    /// window: the app hands the completion to the agent.
    case completeTimer = "complete-timer"
    /// Opens the app's window at the timer's Sleep route; the parameter is
    /// the timer's id (`s`).
    case openTimer = "open-timer"

    /// The name as a notification's button or default action names it:
    /// `app.` marks an exported action, which the portal delivers to the
    /// app by D-Bus activation.
    public var exported: String { "app." + rawValue }
}
