import SleepTimerCore

/// What the app knows of its configuration when the window opens.
public enum AppSetup: Sendable, Equatable {
    /// The web app's origin (the product's unless the configuration names
    /// another), and a private CA to trust for it, if any.
    case configured(APIOrigin, certificateAuthorities: String?)
    /// A configuration that cannot be used: the window names the mistake.
    case invalid(String)
}

/// The app's setup in the instance that runs the window: its configuration,
/// read once at startup, and whether WebKitWebDriver may drive the window.
/// Automation is allowed only by the command line of the instance that
/// starts, before its window exists: WebKit gives a view to automation only
/// when its context allowed it before the view was made, and a forwarded
/// command line (another program's `dreamsforlittles --automation`) must
/// not hand the running window to a WebDriver client.
public struct AppSetupMachine: Sendable {
    public struct State: Sendable, Equatable {
        /// The configuration as read at startup; nil before it is read.
        public var setup: AppSetup?
        /// WebKitWebDriver may drive the window.
        public var automation = false
        /// The window exists: automation can no longer be turned on.
        public var windowMade = false
    }

    private(set) var state = State()

    public init() {}

    /// The configuration was read, or found absent (its defaults): the app
    /// ships with the product's web app, so there is always one to show.
    /// Returns the origin of the web app to show.
    public mutating func configurationRead(_ configuration: Configuration) -> APIOrigin {
        state.setup = .configured(configuration.webOrigin, certificateAuthorities: configuration.certificateAuthorities)
        return configuration.webOrigin
    }

    /// The configuration could not be read or used. Returns the mistake to
    /// say; the window names it too.
    public mutating func configurationFailed(_ description: String) -> String {
        state.setup = .invalid(description)
        return description
    }

    public enum AutomationAskedAction: Sendable, Equatable {
        /// Turned on: the window will be made for WebKitWebDriver.
        case allow
        /// Ignored, and said so: too late, or not this instance's own start.
        case ignore
    }

    /// A command line asked for `--automation`; `remote` when the running
    /// instance received it from another launch.
    public mutating func automationAsked(remote: Bool) -> AutomationAskedAction {
        guard !remote, !state.windowMade else { return .ignore }
        state.automation = true
        return .allow
    }

    /// Make the one window with this setup; with `automation`, allow
    /// WebKit's automation before the view is made, and let the WebDriver
    /// session drive it. A struct: the window is always made.
    public struct WindowWantedAction: Sendable, Equatable {
        public var setup: AppSetup
        public var automation: Bool

        public init(setup: AppSetup, automation: Bool) {
            self.setup = setup
            self.automation = automation
        }
    }

    /// The window is wanted and does not exist yet. A window wanted before
    /// the configuration was read (which GApplication does not allow) shows
    /// what no configuration gives, the product's web app, rather than
    /// nothing.
    public mutating func windowWanted() -> WindowWantedAction {
        state.windowMade = true
        return WindowWantedAction(setup: state.setup ?? Self.unread, automation: state.automation)
    }

    /// The setup of a configuration not read: its defaults.
    static var unread: AppSetup {
        .configured(Configuration().webOrigin, certificateAuthorities: Configuration().certificateAuthorities)
    }
}
