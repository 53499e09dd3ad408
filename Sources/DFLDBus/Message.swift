import CDFLDBus
import Glibc

/// The D-Bus type codes, which libdbus defines as macros Swift does not
/// import.
enum TypeCode {
    static let invalid: Int32 = 0
    static let byte = code("y")
    static let boolean = code("b")
    static let int16 = code("n")
    static let uint16 = code("q")
    static let int32 = code("i")
    static let uint32 = code("u")
    static let int64 = code("x")
    static let uint64 = code("t")
    static let double = code("d")
    static let string = code("s")
    static let objectPath = code("o")
    static let signature = code("g")
    static let unixFD = code("h")
    static let array = code("a")
    static let variant = code("v")
    static let structure = code("r")
    static let dictEntry = code("e")

    private static func code(_ letter: Unicode.Scalar) -> Int32 { Int32(letter.value) }
}

/// One D-Bus message. Owns one reference to the libdbus message.
public final class Message {
    let raw: OpaquePointer

    init(taking raw: OpaquePointer) { self.raw = raw }

    init(retaining raw: OpaquePointer) {
        dbus_message_ref(raw)
        self.raw = raw
    }

    deinit { dbus_message_unref(raw) }

    public enum Kind: Sendable {
        case methodCall, methodReturn, error, signal, other
    }

    public var kind: Kind {
        switch dbus_message_get_type(raw) {
        case DBUS_MESSAGE_TYPE_METHOD_CALL: return .methodCall
        case DBUS_MESSAGE_TYPE_METHOD_RETURN: return .methodReturn
        case DBUS_MESSAGE_TYPE_ERROR: return .error
        case DBUS_MESSAGE_TYPE_SIGNAL: return .signal
        default: return .other
        }
    }

    public var sender: String? { dbus_message_get_sender(raw).map { String(cString: $0) } }
    public var destination: String? { dbus_message_get_destination(raw).map { String(cString: $0) } }
    public var path: String? { dbus_message_get_path(raw).map { String(cString: $0) } }
    public var interface: String? { dbus_message_get_interface(raw).map { String(cString: $0) } }
    public var member: String? { dbus_message_get_member(raw).map { String(cString: $0) } }
    public var errorName: String? { dbus_message_get_error_name(raw).map { String(cString: $0) } }
    public var signature: String { String(cString: dbus_message_get_signature(raw)) }
    public var serial: UInt32 { dbus_message_get_serial(raw) }
    public var expectsReply: Bool { dbus_message_get_no_reply(raw) == 0 }

    // MARK: Making messages

    /// libdbus keeps global state (a cache of messages among it) that is
    /// locked only once its thread support is on; the agent is
    /// single-threaded, but a library must not assume its callers are.
    static let threadSupport: Void = {
        guard dbus_threads_init_default() != 0 else { outOfMemory() }
    }()

    public static func methodCall(destination: String?, path: String, interface: String?, member: String) -> Message {
        threadSupport
        guard let raw = dbus_message_new_method_call(destination, path, interface, member) else { outOfMemory() }
        return Message(taking: raw)
    }

    public static func signal(path: String, interface: String, member: String) -> Message {
        threadSupport
        guard let raw = dbus_message_new_signal(path, interface, member) else { outOfMemory() }
        return Message(taking: raw)
    }

    /// A call that must not start its destination by D-Bus activation: for
    /// a program that is to be reached only while it runs.
    public func withoutAutoStart() -> Message {
        dbus_message_set_auto_start(raw, 0)
        return self
    }

    /// The reply to this method call.
    public func methodReturn() -> Message {
        guard let reply = dbus_message_new_method_return(raw) else { Self.outOfMemory() }
        return Message(taking: reply)
    }

    /// The body of a reply prepared once and sent many times (an unchanged
    /// List, say): `methodReturn(copying:)` then copies its bytes instead of
    /// marshalling the values again. Never sent itself.
    public static func replyTemplate(_ values: [BusValue]) -> Message {
        threadSupport
        guard let raw = dbus_message_new(DBUS_MESSAGE_TYPE_METHOD_RETURN) else { outOfMemory() }
        return Message(taking: raw).append(contentsOf: values)
    }

    /// The reply to this method call, with the body of `template`.
    public func methodReturn(copying template: Message) -> Message {
        guard let copy = dbus_message_copy(template.raw) else { Self.outOfMemory() }
        dbus_message_set_no_reply(copy, 1)
        guard dbus_message_set_reply_serial(copy, serial) != 0 else { Self.outOfMemory() }
        if let sender, dbus_message_set_destination(copy, sender) == 0 { Self.outOfMemory() }
        return Message(taking: copy)
    }

    /// An error reply to this method call.
    public func errorReply(name: String, message: String) -> Message {
        guard let reply = dbus_message_new_error(raw, name, Self.cSafe(message)) else { Self.outOfMemory() }
        return Message(taking: reply)
    }

    /// libdbus aborts the process when it cannot allocate a message; so does
    /// this, the same way.
    static func outOfMemory() -> Never {
        fatalError("D-Bus: out of memory")
    }

    /// Strings cross into C as NUL-terminated text; an embedded NUL would cut
    /// them short silently, so it becomes U+FFFD instead.
    static func cSafe(_ text: String) -> String {
        let hasNUL = text.utf8.withContiguousStorageIfAvailable { $0.isEmpty ? false : memchr($0.baseAddress!, 0, $0.count) != nil }
            ?? text.utf8.contains(0)
        return hasNUL ? String(text.unicodeScalars.map { $0 == "\0" ? "\u{FFFD}" : Character($0) }) : text
    }

    // MARK: Arguments

    /// Appends values as the message's next arguments.
    @discardableResult
    public func append(_ values: BusValue...) -> Message {
        append(contentsOf: values)
    }

    @discardableResult
    public func append(contentsOf values: [BusValue]) -> Message {
        var iterator = DBusMessageIter()
        dbus_message_iter_init_append(raw, &iterator)
        for value in values { Self.write(value, into: &iterator) }
        return self
    }

    private static func write(_ value: BusValue, into iterator: inout DBusMessageIter) {
        func basic<T: BitwiseCopyable>(_ type: Int32, _ value: T) {
            var copy = value
            guard dbus_message_iter_append_basic(&iterator, type, &copy) != 0 else { outOfMemory() }
        }
        func text(_ type: Int32, _ string: String) {
            cSafe(string).withCString { pointer in
                var address: UnsafePointer<CChar>? = pointer
                guard dbus_message_iter_append_basic(&iterator, type, &address) != 0 else { outOfMemory() }
            }
        }
        func container(_ type: Int32, _ signature: String?, _ body: (inout DBusMessageIter) -> Void) {
            var sub = DBusMessageIter()
            let opened = signature.map { dbus_message_iter_open_container(&iterator, type, $0, &sub) }
                ?? dbus_message_iter_open_container(&iterator, type, nil, &sub)
            guard opened != 0 else { outOfMemory() }
            body(&sub)
            guard dbus_message_iter_close_container(&iterator, &sub) != 0 else { outOfMemory() }
        }
        switch value {
        case .byte(let v): basic(TypeCode.byte, v)
        case .boolean(let v): basic(TypeCode.boolean, dbus_bool_t(v ? 1 : 0))
        case .int16(let v): basic(TypeCode.int16, v)
        case .uint16(let v): basic(TypeCode.uint16, v)
        case .int32(let v): basic(TypeCode.int32, v)
        case .uint32(let v): basic(TypeCode.uint32, v)
        case .int64(let v): basic(TypeCode.int64, v)
        case .uint64(let v): basic(TypeCode.uint64, v)
        case .double(let v): basic(TypeCode.double, v)
        case .string(let v): text(TypeCode.string, v)
        case .objectPath(let v): text(TypeCode.objectPath, v)
        case .signature(let v): text(TypeCode.signature, v)
        case .array(let elementSignature, let elements):
            container(TypeCode.array, elementSignature) { sub in
                for element in elements { write(element, into: &sub) }
            }
        case .structure(let fields):
            container(TypeCode.structure, nil) { sub in
                for field in fields { write(field, into: &sub) }
            }
        case .dictEntry(let key, let value):
            container(TypeCode.dictEntry, nil) { sub in
                write(key, into: &sub)
                write(value, into: &sub)
            }
        case .variant(let inner):
            container(TypeCode.variant, inner.signature) { sub in write(inner, into: &sub) }
        case .unixFD(let file):
            basic(TypeCode.unixFD, file.descriptor)
        }
    }

    /// The most values one message may unpack into: far beyond any real
    /// call to this project's interface, and a bound on what a hostile
    /// caller can make the agent allocate.
    public static let maximumValues = 100_000

    /// Reads every argument. Throws LimitsExceeded for messages with more
    /// than `maximumValues` values.
    public func arguments() throws(BusError) -> [BusValue] {
        var iterator = DBusMessageIter()
        guard dbus_message_iter_init(raw, &iterator) != 0 else { return [] }
        var budget = Self.maximumValues
        return try Self.readAll(&iterator, budget: &budget)
    }

    private static func readAll(_ iterator: inout DBusMessageIter, budget: inout Int) throws(BusError) -> [BusValue] {
        var values: [BusValue] = []
        while dbus_message_iter_get_arg_type(&iterator) != TypeCode.invalid {
            values.append(try read(&iterator, budget: &budget))
            dbus_message_iter_next(&iterator)
        }
        return values
    }

    private static func read(_ iterator: inout DBusMessageIter, budget: inout Int) throws(BusError) -> BusValue {
        budget -= 1
        guard budget >= 0 else {
            throw BusError(name: BusError.Names.limitsExceeded, message: "The message holds more values than this service accepts.")
        }
        let type = dbus_message_iter_get_arg_type(&iterator)
        var basic = DBusBasicValue()
        func getBasic() { dbus_message_iter_get_basic(&iterator, &basic) }
        switch type {
        case TypeCode.byte: getBasic(); return .byte(basic.byt)
        case TypeCode.boolean: getBasic(); return .boolean(basic.bool_val != 0)
        case TypeCode.int16: getBasic(); return .int16(basic.i16)
        case TypeCode.uint16: getBasic(); return .uint16(basic.u16)
        case TypeCode.int32: getBasic(); return .int32(basic.i32)
        case TypeCode.uint32: getBasic(); return .uint32(basic.u32)
        case TypeCode.int64: getBasic(); return .int64(Int64(basic.i64))
        case TypeCode.uint64: getBasic(); return .uint64(UInt64(basic.u64))
        case TypeCode.double: getBasic(); return .double(basic.dbl)
        case TypeCode.string: getBasic(); return .string(String(cString: basic.str))
        case TypeCode.objectPath: getBasic(); return .objectPath(String(cString: basic.str))
        case TypeCode.signature: getBasic(); return .signature(String(cString: basic.str))
        case TypeCode.unixFD:
            // libdbus hands out a duplicate that is ours to close.
            getBasic()
            guard basic.fd >= 0 else {
                throw BusError(name: BusError.Names.invalidArgs, message: "A file descriptor in the message could not be received.")
            }
            return .unixFD(UnixFileDescriptor(taking: basic.fd))
        case TypeCode.array:
            let element = elementSignature(&iterator)
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &sub)
            return .array(elementSignature: element, try readAll(&sub, budget: &budget))
        case TypeCode.structure:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &sub)
            return .structure(try readAll(&sub, budget: &budget))
        case TypeCode.dictEntry:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &sub)
            let pair = try readAll(&sub, budget: &budget)
            guard pair.count == 2 else { throw BusError(name: BusError.Names.invalidArgs, message: "A dictionary entry is malformed.") }
            return .dictEntry(pair[0], pair[1])
        case TypeCode.variant:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &sub)
            return .variant(try read(&sub, budget: &budget))
        default:
            throw BusError(name: BusError.Names.invalidArgs, message: "The message holds a value of a type this service does not accept.")
        }
    }

    /// The signature of an array's elements ("s" for "as").
    private static func elementSignature(_ iterator: inout DBusMessageIter) -> String {
        guard let full = dbus_message_iter_get_signature(&iterator) else { outOfMemory() }
        defer { dbus_free(full) }
        return String(String(cString: full).dropFirst())
    }
}

/// A message is built and read on the loop's thread; libdbus does not lock a message against a second thread.
@available(*, unavailable)
extension Message: Sendable {}
