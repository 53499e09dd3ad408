/// An IANA time zone name such as `Europe/Berlin`, checked for shape before
/// it is ever used to find a file: letters, digits, `_`, `+`, `-`, separated
/// by single slashes, with no `.` or `..` component.
public struct TimeZoneName: Hashable, Sendable, CustomStringConvertible {
    public let identifier: String

    public static let maximumLength = 64

    public init?(_ identifier: String) {
        guard (1...Self.maximumLength).contains(identifier.utf8.count) else { return nil }
        let components = identifier.split(separator: "/", omittingEmptySubsequences: false)
        for component in components {
            guard !component.isEmpty,
                component.utf8.allSatisfy({
                    ($0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z"))
                        || ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z"))
                        || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
                        || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-")
                }),
                !component.hasPrefix("-")
            else { return nil }
        }
        self.identifier = identifier
    }

    public var description: String { identifier }
}

/// Finds the rules of a named zone. The programs read the system's zone
/// files through GLib (GLibTimeZones); tests can hand in rules of their own.
public protocol TimeZoneResolving: Sendable {
    func rules(for name: TimeZoneName) -> TimeZoneRules?
}
