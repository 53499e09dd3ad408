/// The desktop's services that this project calls or follows, with their
/// paths, interfaces and members, named once so that no call site spells
/// one out. The bus daemon's own are StandardInterface.Bus.
public enum ExternalInterface {
    /// xdg-desktop-portal's OpenURI, which opens a link outside a sandbox,
    /// and its Settings, where the desktop publishes its style.
    public enum Portal {
        public static let name = "org.freedesktop.portal.Desktop"
        public static let path = "/org/freedesktop/portal/desktop"
        public static let openURIInterface = "org.freedesktop.portal.OpenURI"
        public static let openURI = "OpenURI"
        public static let settingsInterface = "org.freedesktop.portal.Settings"
        /// Version 2 of the interface; its value comes as one variant.
        public static let readOne = "ReadOne"
        /// Version 1's, deprecated in 2: its value comes in a second variant.
        public static let read = "Read"
        public static let settingChanged = "SettingChanged"
        public static let notFoundError = "org.freedesktop.portal.Error.NotFound"
        /// The notification portal: what a sandboxed program posts instead
        /// of calling the notification server, its buttons naming the app's
        /// exported actions.
        public static let notificationInterface = "org.freedesktop.portal.Notification"
        public static let addNotification = "AddNotification"
        public static let removeNotification = "RemoveNotification"
        /// The background portal (version 2 and later): SetStatus, the line
        /// GNOME Shell shows under Background Apps for a sandboxed app.
        public static let backgroundInterface = "org.freedesktop.portal.Background"
        public static let setStatus = "SetStatus"
        /// RequestBackground, which the app calls for the agent's autostart;
        /// its answer comes as the Response signal of a Request object,
        /// under requestPathPrefix + the caller's unique name + the token.
        public static let requestBackground = "RequestBackground"
        public static let requestInterface = "org.freedesktop.portal.Request"
        public static let response = "Response"
        public static let requestPathPrefix = path + "/request/"
        /// Every portal interface's version property.
        public static let versionProperty = "version"
        /// The GlobalShortcuts portal: a session, the shortcuts bound in it
        /// (each answered through a Request's Response), and Activated when
        /// one is pressed.
        public static let globalShortcutsInterface = "org.freedesktop.portal.GlobalShortcuts"
        public static let createSession = "CreateSession"
        public static let bindShortcuts = "BindShortcuts"
        public static let activated = "Activated"
        /// xdg-desktop-portal 1.21's registry, where a program outside a
        /// sandbox says its app id before any other portal call.
        public static let hostRegistryInterface = "org.freedesktop.host.portal.Registry"
        public static let register = "Register"
    }

    /// systemd-logind's manager on the system bus: suspends and resumes.
    public enum Login {
        public static let name = "org.freedesktop.login1"
        public static let path = "/org/freedesktop/login1"
        public static let managerInterface = "org.freedesktop.login1.Manager"
        public static let prepareForSleep = "PrepareForSleep"
    }

    /// NetworkManager on the system bus: the network's coming and going.
    public enum NetworkManager {
        public static let name = "org.freedesktop.NetworkManager"
        public static let path = "/org/freedesktop/NetworkManager"
        public static let interface = "org.freedesktop.NetworkManager"
        public static let stateChanged = "StateChanged"
    }

    /// The panel's org.kde.StatusNotifierWatcher, which items register with.
    public enum StatusNotifierWatcher {
        public static let name = "org.kde.StatusNotifierWatcher"
        public static let path = "/StatusNotifierWatcher"
        public static let interface = "org.kde.StatusNotifierWatcher"
        public static let registerItem = "RegisterStatusNotifierItem"
        public static let hostRegistered = "StatusNotifierHostRegistered"
        public static let hostUnregistered = "StatusNotifierHostUnregistered"
        public static let isHostRegistered = "IsStatusNotifierHostRegistered"
    }

    /// GApplication's interface, which a desktop app serves at its own name
    /// and path: how another process opens links in it or activates it.
    public enum Application {
        public static let interface = "org.freedesktop.Application"
        public static let open = "Open"
        public static let activate = "Activate"
        public static let activateAction = "ActivateAction"
    }

    /// The desktop's notification server.
    public enum Notifications {
        public static let name = "org.freedesktop.Notifications"
        public static let path = "/org/freedesktop/Notifications"
        public static let interface = "org.freedesktop.Notifications"
        public static let getCapabilities = "GetCapabilities"
        public static let closeNotification = "CloseNotification"
    }

    /// GNOME Shell's notification service for GNotification, which GIO
    /// prefers to org.freedesktop.Notifications when the name has an owner.
    public enum GtkNotifications {
        public static let name = "org.gtk.Notifications"
    }
}

/// The desktops' searches that the agent answers on its own connection:
/// GNOME Shell's search provider (version 2) and KRunner's D-Bus runner.
/// Each calls the objects it was told of (by the files in packaging/search)
/// and never starts the agent.
public enum SearchInterface {
    /// GNOME Shell's overview: `org.gnome.Shell.SearchProvider2`.
    public enum GnomeShell {
        public static let interface = "org.gnome.Shell.SearchProvider2"
        public static let getInitialResultSet = "GetInitialResultSet"
        public static let getSubsearchResultSet = "GetSubsearchResultSet"
        public static let getResultMetas = "GetResultMetas"
        public static let activateResult = "ActivateResult"
        public static let launchSearch = "LaunchSearch"
        /// Each method's input signature.
        public static let methods: [String: String] = [
            getInitialResultSet: "as", getSubsearchResultSet: "asas", getResultMetas: "as",
            activateResult: "sasu", launchSearch: "asu",
        ]
        /// The keys of a result's meta (GetResultMetas).
        public enum MetaKey {
            public static let id = "id"
            public static let name = "name"
            public static let description = "description"
            /// A serialized icon (g_icon_to_string): a themed icon's name.
            public static let gicon = "gicon"
        }
    }

    /// KDE's KRunner: `org.kde.krunner1`.
    public enum KRunner {
        public static let interface = "org.kde.krunner1"
        public static let actions = "Actions"
        public static let match = "Match"
        public static let run = "Run"
        public static let teardown = "Teardown"
        /// Each method's input signature.
        public static let methods: [String: String] = [actions: "", match: "s", run: "ss", teardown: ""]
        /// A match's category relevance (KRunner 6's QueryMatch::CategoryRelevance).
        public static let highest: Int32 = 100
        public static let high: Int32 = 70
        /// The keys of a match's properties.
        public enum PropertyKey {
            public static let subtext = "subtext"
            /// The ids of the actions offered on this match (all when absent).
            public static let actions = "actions"
        }
    }
}
