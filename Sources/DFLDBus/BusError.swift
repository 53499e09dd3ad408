import CDFLDBus

/// A D-Bus error: its name (such as org.freedesktop.DBus.Error.ServiceUnknown)
/// and its message.
public struct BusError: Error, Sendable, Equatable, CustomStringConvertible {
    public let name: String
    public let message: String

    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { "\(message) (\(name))" }

    /// Takes the contents of a set DBusError and frees it.
    static func take(_ error: inout DBusError) -> BusError {
        let result = BusError(
            name: error.name.map { String(cString: $0) } ?? "org.freedesktop.DBus.Error.Failed",
            message: error.message.map { String(cString: $0) } ?? "unknown error")
        dbus_error_free(&error)
        return result
    }

    public static let noMemory = BusError(name: "org.freedesktop.DBus.Error.NoMemory", message: "out of memory")

    /// Standard error names.
    public enum Names {
        public static let failed = "org.freedesktop.DBus.Error.Failed"
        public static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
        public static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
        public static let unknownInterface = "org.freedesktop.DBus.Error.UnknownInterface"
        public static let unknownObject = "org.freedesktop.DBus.Error.UnknownObject"
        public static let unknownProperty = "org.freedesktop.DBus.Error.UnknownProperty"
        public static let propertyReadOnly = "org.freedesktop.DBus.Error.PropertyReadOnly"
        public static let serviceUnknown = "org.freedesktop.DBus.Error.ServiceUnknown"
        public static let nameHasNoOwner = "org.freedesktop.DBus.Error.NameHasNoOwner"
        public static let noReply = "org.freedesktop.DBus.Error.NoReply"
        public static let limitsExceeded = "org.freedesktop.DBus.Error.LimitsExceeded"
    }
}
