/// The interfaces of the D-Bus specification that every object may
/// implement, and the bus daemon's own, with their member names, so that no
/// call site spells one out.
public enum StandardInterface {
    public enum Properties {
        public static let name = "org.freedesktop.DBus.Properties"
        public static let get = "Get"
        public static let getAll = "GetAll"
        public static let set = "Set"
        public static let propertiesChanged = "PropertiesChanged"
    }

    public enum Introspectable {
        public static let name = "org.freedesktop.DBus.Introspectable"
        public static let introspect = "Introspect"
    }

    public enum Peer {
        public static let name = "org.freedesktop.DBus.Peer"
        public static let ping = "Ping"
    }

    /// What libdbus itself sends to the connection (Disconnected).
    public enum Local {
        public static let name = "org.freedesktop.DBus.Local"
        public static let disconnected = "Disconnected"
    }

    /// The bus daemon.
    public enum Bus {
        public static let name = "org.freedesktop.DBus"
        public static let path = "/org/freedesktop/DBus"
        public static let nameHasOwner = "NameHasOwner"
        public static let nameOwnerChanged = "NameOwnerChanged"
        public static let getNameOwner = "GetNameOwner"

        /// The match rule for NameOwnerChanged of one name.
        public static func ownerChangedMatch(of name: String) -> String {
            "type='signal',sender='\(Bus.name)',interface='\(Bus.name)',member='\(nameOwnerChanged)',arg0='\(name)'"
        }
    }
}
