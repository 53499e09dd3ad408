import Glibc

/// A D-Bus value with its type, as read from or written to a message.
public indirect enum BusValue: Equatable, Sendable {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// The element signature is kept so that an empty array still has a type.
    case array(elementSignature: String, [BusValue])
    case structure([BusValue])
    case dictEntry(BusValue, BusValue)
    case variant(BusValue)
    /// A file descriptor passed over the bus (type `h`).
    case unixFD(UnixFileDescriptor)

    /// The value's D-Bus type signature.
    public var signature: String {
        switch self {
        case .byte: return "y"
        case .boolean: return "b"
        case .int16: return "n"
        case .uint16: return "q"
        case .int32: return "i"
        case .uint32: return "u"
        case .int64: return "x"
        case .uint64: return "t"
        case .double: return "d"
        case .string: return "s"
        case .objectPath: return "o"
        case .signature: return "g"
        case .array(let element, _): return "a" + element
        case .structure(let fields): return "(" + fields.map(\.signature).joined() + ")"
        case .dictEntry(let key, let value): return "{" + key.signature + value.signature + "}"
        case .variant: return "v"
        case .unixFD: return "h"
        }
    }

    // MARK: Building

    /// `a{sv}` from ordered pairs.
    public static func vardict(_ entries: [(String, BusValue)]) -> BusValue {
        .array(elementSignature: "{sv}", entries.map { .dictEntry(.string($0.0), .variant($0.1)) })
    }

    /// `as`
    public static func strings(_ values: [String]) -> BusValue {
        .array(elementSignature: "s", values.map(BusValue.string))
    }

    // MARK: Reading

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var int64Value: Int64? {
        if case .int64(let value) = self { return value }
        return nil
    }

    public var uint32Value: UInt32? {
        if case .uint32(let value) = self { return value }
        return nil
    }

    public var booleanValue: Bool? {
        if case .boolean(let value) = self { return value }
        return nil
    }

    public var fileDescriptor: UnixFileDescriptor? {
        if case .unixFD(let descriptor) = self { return descriptor }
        return nil
    }

    public var arrayElements: [BusValue]? {
        if case .array(_, let elements) = self { return elements }
        return nil
    }

    /// The value inside a variant, or the value itself.
    public var unwrapped: BusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    /// An `a{sv}` as ordered key/value pairs with the variants unwrapped, or
    /// nil when this is not an `a{sv}`.
    public var vardictEntries: [(key: String, value: BusValue)]? {
        guard case .array("{sv}", let elements) = self else { return nil }
        var entries: [(key: String, value: BusValue)] = []
        entries.reserveCapacity(elements.count)
        for element in elements {
            guard case .dictEntry(.string(let key), .variant(let value)) = element else { return nil }
            entries.append((key, value))
        }
        return entries
    }
}

/// A descriptor received in (or to be sent with) a message. A received one
/// is this process's own duplicate, closed when the last reference goes.
/// Sendable: immutable, and a descriptor is the process's, not a thread's.
public final class UnixFileDescriptor: Equatable, Sendable {
    public let descriptor: Int32
    private let owned: Bool

    /// Takes ownership: the descriptor is closed on deinit.
    public init(taking descriptor: Int32) {
        self.descriptor = descriptor
        owned = true
    }

    /// Borrows: libdbus duplicates it when the message is built.
    public init(borrowing descriptor: Int32) {
        self.descriptor = descriptor
        owned = false
    }

    deinit {
        if owned { close(descriptor) }
    }

    public static func == (lhs: UnixFileDescriptor, rhs: UnixFileDescriptor) -> Bool {
        lhs.descriptor == rhs.descriptor
    }
}
