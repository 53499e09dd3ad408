import SleepTimerCore

/// How the panel item makes itself known to the StatusNotifierWatcher,
/// decided once at the agent's start from where it runs: the host and the
/// Flatpak need different ways, and a test may force either.
public enum PanelRegistrationRule {
    /// The way the item is registered; the shell keeps it for the agent's life.
    public enum Registration: Sendable, Equatable {
        /// Owns `org.kde.StatusNotifierItem-PID-1` while shown and registers
        /// that name; releasing it is what makes hosts drop the item. The
        /// .deb's way, on the host.
        case wellKnownName(String)
        /// Registers the item's object path, which the watcher pairs with the
        /// sender's unique name: inside a Flatpak, where every process id is 2
        /// (so `…-2-1` collides across sandboxed apps) and a sandbox may own no
        /// `org.kde.StatusNotifierItem-*` name. The item then stays registered
        /// until the agent leaves the bus; withdrawn, it is Passive.
        case objectPath
    }

    /// The variable that forces a registration: `name` or `path`.
    public static let overrideVariable = "DFL_PANEL_REGISTRATION"

    public struct UnknownRegistration: Error, Equatable, CustomStringConvertible {
        public let value: String
        public init(value: String) { self.value = value }
        public var description: String {
            "\(PanelRegistrationRule.overrideVariable)=\(value) names no panel registration; use name or path."
        }
    }

    /// By object path inside a Flatpak, by name on the host; `override`
    /// (unset or empty: none) forces either.
    public static func registration(place: RunningPlace, processID: Int32, override: String?)
        throws(UnknownRegistration) -> Registration
    {
        let byName = Registration.wellKnownName("org.kde.StatusNotifierItem-\(processID)-1")
        switch override {
        case nil, "": return place.isSandboxed ? .objectPath : byName
        case "name": return byName
        case "path": return .objectPath
        case let value?: throw UnknownRegistration(value: value)
        }
    }
}
