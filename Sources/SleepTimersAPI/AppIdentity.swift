/// Who the programs are, said once for every target: the ids the desktop
/// knows them by, the name a person reads outside translated sentences (the
/// sentences keep it in their catalogs), and the version. The version's one
/// source is here: the Debian changelog, the metainfo's newest release and
/// the manual pages state it too, packaging/build-deb.sh refuses a
/// changelog that differs, and a unit test (AppIdentityTests) fails when
/// any of them does.
public enum AppIdentity {
    /// The app's id: its GApplication id and bus name, its desktop entry
    /// and icon, and the Flatpak's id.
    public static let appID = "com.dreamsforlittles.DreamsForLittles"
    /// The object GApplication exports the app at: its id as a path.
    public static var appObjectPath: String { "/" + appID.split(separator: ".").joined(separator: "/") }
    /// The agent's desktop entry (the package installs it), by which the
    /// desktop groups its notifications.
    public static let agentID = "com.dreamsforlittles.DreamsForLittles.SleepAgent"
    /// The product's name, as the window's title and the notifications'
    /// sender.
    public static let name = "Dreams for Littles"
    /// The version of every program and of the package.
    public static let version = "0.1.0"
    /// The version's numbers (major, minor, micro), for an API that takes
    /// them apart (WebKit's application info).
    public static var versionNumbers: [UInt64] { version.split(separator: ".").compactMap { UInt64($0) } }
}

/// Where the agent answers the desktops' searches: at its own bus name
/// (SleepTimers1's), at one object per search, under the app's path.
public enum SearchObjects {
    /// GNOME Shell's search provider.
    public static var gnomeShellPath: String { AppIdentity.appObjectPath + "/SearchProvider" }
    /// KRunner's D-Bus runner.
    public static var kRunnerPath: String { AppIdentity.appObjectPath + "/KRunner" }
    /// A result's icon: the app's.
    public static let icon = AppIdentity.appID
    /// KRunner's actions on a result, besides the default (open).
    public enum KRunnerAction: String, Sendable, CaseIterable {
        case complete
    }
}
