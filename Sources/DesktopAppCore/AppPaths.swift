import SleepTimerCore

/// Where the app keeps what it keeps, from the XDG base directories:
/// website data (the web app's sign-in, local storage and outbox, cookies)
/// under `$XDG_DATA_HOME/dreamsforlittles/`, the HTTP cache under
/// `$XDG_CACHE_HOME/dreamsforlittles/`, the window's size under
/// `$XDG_STATE_HOME/dreamsforlittles/`. Relative values are ignored, as the
/// XDG Base Directory specification asks.
public struct AppPaths: Sendable, Equatable {
    public let websiteData: String
    public let cache: String
    public let state: String
    /// The user's autostart entries, `$XDG_CONFIG_HOME/autostart`.
    public let autostart: String
    /// The user's systemd units, `$XDG_CONFIG_HOME/systemd/user`.
    public let userUnits: String

    public init(environment: [String: String]) {
        let home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/"
        func base(_ variable: String, _ fallback: String) -> String {
            if let value = environment[variable], value.hasPrefix("/") { return value }
            return (home == "/" ? "" : home) + fallback
        }
        websiteData = base("XDG_DATA_HOME", "/.local/share") + "/dreamsforlittles"
        cache = base("XDG_CACHE_HOME", "/.cache") + "/dreamsforlittles"
        state = base("XDG_STATE_HOME", "/.local/state") + "/dreamsforlittles"
        autostart = base("XDG_CONFIG_HOME", "/.config") + "/autostart"
        userUnits = base("XDG_CONFIG_HOME", "/.config") + "/systemd/user"
    }

    /// There while Start at login is off in the Flatpak, whose portal
    /// removes its entry when asked for none (StartAtLoginRule).
    public var startAtLoginOff: String { state + "/start-at-login-off" }
    /// There once the Flatpak asked the Background portal for its autostart
    /// (SandboxAgentMachine): a later start asks no more.
    public var backgroundAsked: String { state + "/background-asked" }

    /// The file that keeps the window's size.
    public var windowState: String { state + "/window.conf" }

    /// There once the app has said that it keeps running with its window
    /// closed, so that it says so only the first time.
    public var backgroundNoticeGiven: String { state + "/background-notice-given" }

    /// The bridge program: `DFL_WEBVIEW_BRIDGE` when set to an absolute
    /// path (tests and developers), else `dfl-webview-bridge` beside the
    /// app's own executable.
    public static func bridgeProgram(environment: [String: String], executable: String) -> String {
        if let configured = environment["DFL_WEBVIEW_BRIDGE"], configured.hasPrefix("/") { return configured }
        let directory = executable.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            .joined(separator: "/")
        return (directory.isEmpty ? "" : directory) + "/dfl-webview-bridge"
    }
}

/// The window's size and whether it was maximized, kept between runs in a
/// small key file.
public struct WindowState: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var maximized: Bool

    public static let standard = WindowState(width: 1024, height: 768, maximized: false)
    static let minimum = (width: 360, height: 480)
    static let maximum = 16_384

    public init(width: Int, height: Int, maximized: Bool) {
        self.width = min(max(width, Self.minimum.width), Self.maximum)
        self.height = min(max(height, Self.minimum.height), Self.maximum)
        self.maximized = maximized
    }

    /// The state a file holds, read as a key file by `keyFiles`; anything
    /// unreadable gives the standard size (a lost window size is no reason
    /// to stop the app).
    public init(parsing text: String, keyFiles: any KeyFileParsing) {
        var state = Self.standard
        if let file = try? keyFiles.parse(text), let group = file.groups.first(where: { $0.name == "window" }) {
            for entry in group.entries {
                switch entry.key {
                case "width": state.width = entry.value.flatMap { Int($0) } ?? state.width
                case "height": state.height = entry.value.flatMap { Int($0) } ?? state.height
                case "maximized": state.maximized = entry.value == "true"
                default: break
                }
            }
        }
        self.init(width: state.width, height: state.height, maximized: state.maximized)
    }

    public var serialized: String {
        "# The Dreams for Littles window's size, kept between runs.\n[window]\nwidth=\(width)\nheight=\(height)\nmaximized=\(maximized)\n"
    }
}
