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
        /// The bus's own id, random for each bus daemon's run.
        public static let getID = "GetId"
        public static let requestName = "RequestName"
        public static let releaseName = "ReleaseName"
        public static let getConnectionUnixProcessID = "GetConnectionUnixProcessID"
        /// What a service answers to a method it does not have.
        public static let unknownMethodError = "org.freedesktop.DBus.Error.UnknownMethod"

        /// The match rule for NameOwnerChanged of every name (connections
        /// leaving the bus among them).
        public static let ownerChangedMatch =
            "type='signal',sender='\(Bus.name)',interface='\(Bus.name)',member='\(nameOwnerChanged)'"

        /// The match rule for NameOwnerChanged of one name.
        public static func ownerChangedMatch(of name: String) -> String {
            "type='signal',sender='\(Bus.name)',interface='\(Bus.name)',member='\(nameOwnerChanged)',arg0='\(name)'"
        }
    }
}

extension StandardInterface {
    /// The XML of Introspectable, Properties and Peer, which every object of
    /// this project also implements (libdbus answers Peer itself).
    static let standardInterfacesXML = """
          <interface name="org.freedesktop.DBus.Introspectable">
            <method name="Introspect"><arg name="xml_data" type="s" direction="out"/></method>
          </interface>
          <interface name="org.freedesktop.DBus.Properties">
            <method name="Get"><arg name="interface_name" type="s" direction="in"/><arg name="property_name" type="s" direction="in"/><arg name="value" type="v" direction="out"/></method>
            <method name="GetAll"><arg name="interface_name" type="s" direction="in"/><arg name="properties" type="a{sv}" direction="out"/></method>
            <method name="Set"><arg name="interface_name" type="s" direction="in"/><arg name="property_name" type="s" direction="in"/><arg name="value" type="v" direction="in"/></method>
            <signal name="PropertiesChanged"><arg name="interface_name" type="s"/><arg name="changed_properties" type="a{sv}"/><arg name="invalidated_properties" type="as"/></signal>
          </interface>
          <interface name="org.freedesktop.DBus.Peer">
            <method name="Ping"/>
            <method name="GetMachineId"><arg name="machine_uuid" type="s" direction="out"/></method>
          </interface>

        """

    /// An interface file (as shipped in /usr/share/dbus-1/interfaces) with
    /// the standard interfaces added before its last `</node>`: the answer
    /// to Introspect. Built when first asked for, not at start.
    public static func introspection(of interfaceFile: [UInt8]) -> String {
        let closing = Array("</node>".utf8)
        var end = interfaceFile.count - closing.count
        while end >= 0 && !interfaceFile[end..<end + closing.count].elementsEqual(closing) { end -= 1 }
        guard end >= 0 else { return String(decoding: interfaceFile, as: UTF8.self) }
        return String(decoding: interfaceFile[..<end], as: UTF8.self) + standardInterfacesXML
            + String(decoding: interfaceFile[end...], as: UTF8.self)
    }
}
