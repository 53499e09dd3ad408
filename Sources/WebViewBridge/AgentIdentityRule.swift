/// Whether the program that answers at the agent's well-known name is the
/// agent of this installation, the only one a token, a purge or a signal
/// is trusted to or from. Any program of the user's on the host may own
/// that name (the .deb's agent beside the Flatpak's, or an impostor); the
/// agent of this installation publishes its bus and unique name in its
/// private state directory before it takes the name, and the bridge, which
/// runs in the same installation, reads the same directory. Only a match
/// is trusted, and the call then goes to the unique name, so that the
/// owner cannot change between the check and the call.
enum AgentIdentityRule {
    /// What the agent's published file said, as the shell read it.
    enum Published: Equatable {
        case name(busID: String, uniqueName: String)
        /// No file: this installation's agent is not on a bus.
        case missing
        /// Not a private file in the agent's form; `reason` says what.
        case unusable(reason: String)
    }

    /// Why the owner is not trusted; `description` is the log's wording.
    enum Reason: Equatable, CustomStringConvertible {
        /// Nobody answered at the name.
        case noOwner
        /// The bus's id is not known (the bus did not say).
        case unknownBus
        case notPublished
        case unusable(reason: String)
        /// The file names a name on another bus (left by an agent that
        /// did not exit cleanly).
        case anotherBus
        /// The name's owner is not the published agent.
        case anotherOwner(owner: String, published: String)

        var description: String {
            switch self {
            case .noOwner: "nothing answers at the agent's name"
            case .unknownBus: "the session bus did not say its id"
            case .notPublished: "this installation's agent has published no bus name"
            case .unusable(let reason): "the agent's published bus name cannot be used (\(reason))"
            case .anotherBus: "the agent's published bus name is of another bus"
            case .anotherOwner(let owner, let published):
                "the agent's name is owned by \(owner), not by this installation's agent (\(published))"
            }
        }
    }

    enum Decision: Equatable {
        /// Call (or believe) this unique name.
        case trust(uniqueName: String)
        case refuse(Reason)
    }

    /// The owner of the agent's name (a unique name, as the bus reported
    /// it: the sender of the owner's reply or signal), the bus's id, and the
    /// published file: trusted only when the file names that owner on this
    /// bus.
    static func decide(owner: String?, busID: String?, published: Published) -> Decision {
        guard let owner, owner.hasPrefix(":") else { return .refuse(.noOwner) }
        switch published {
        case .missing:
            return .refuse(.notPublished)
        case .unusable(let reason):
            return .refuse(.unusable(reason: reason))
        case .name(let publishedBus, let uniqueName):
            guard let busID else { return .refuse(.unknownBus) }
            guard publishedBus == busID else { return .refuse(.anotherBus) }
            guard uniqueName == owner else { return .refuse(.anotherOwner(owner: owner, published: uniqueName)) }
            return .trust(uniqueName: owner)
        }
    }
}
