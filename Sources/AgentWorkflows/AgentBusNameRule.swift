import SleepTimerCore

/// Which of the agent's bus names it owns. The public name always: every
/// client, the host's among them, calls it there. Inside a Flatpak the
/// app-scoped name too, after it: only names under the app id can be D-Bus
/// activated from a sandbox's exported service files, so that is the name
/// whose call starts the agent there. On the host the .deb's activation
/// file starts the agent by its public name, and the agent owns nothing
/// more: an app-scoped name owned by a host agent would answer a sandboxed
/// app in place of its own agent, whose store lives in the sandbox.
public enum AgentBusNameRule {
    /// The names owned, as a choice between the two sets, so that a test
    /// can say which without spelling the names.
    public enum Owned: Sendable, Equatable {
        case publicOnly
        case publicThenAppScoped

        /// The names in the order they are requested (and released in
        /// reverse), given the two names.
        public func names(public publicName: String, appScoped: String) -> [String] {
            switch self {
            case .publicOnly: return [publicName]
            case .publicThenAppScoped: return [publicName, appScoped]
            }
        }
    }

    /// The names the agent owns where it runs.
    public static func owned(at place: RunningPlace) -> Owned {
        place.isSandboxed ? .publicThenAppScoped : .publicOnly
    }
}
