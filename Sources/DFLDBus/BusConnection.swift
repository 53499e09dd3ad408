import CDFLDBus
import EventLoop

/// A private connection to a message bus, driven by the process's main
/// loop: libdbus reports the descriptors and timeouts it needs, the loop
/// watches them, and incoming messages are dispatched from the loop.
///
/// Not Sendable, which the compiler holds: used only on the loop's thread.
public final class BusConnection {
    let raw: OpaquePointer
    let loop: MainLoop
    private var objectHandlers: [String: Unmanaged<Callback<Message, Bool>>] = [:]
    private var signalFilters: [(id: Int, body: (Message) -> Bool)] = []
    private var nextFilterID = 0
    /// Whether the one libdbus filter, which holds this object unretained, is in place.
    private var filterInstalled = false
    private var pendingDispatch: MainLoop.Source?
    /// Set while a libdbus handle call runs that a dispatch follows.
    private var dispatchFollows = false
    private var closed = false

    public enum Bus {
        case session
        case system
    }

    /// Connects to the session or system bus named by the environment
    /// (DBUS_SESSION_BUS_ADDRESS, or the standard system bus socket).
    public convenience init(bus: Bus, loop: MainLoop) throws(BusError) {
        Message.threadSupport
        var error = DBusError()
        dbus_error_init(&error)
        guard let raw = dbus_bus_get_private(bus == .session ? DBUS_BUS_SESSION : DBUS_BUS_SYSTEM, &error) else {
            throw BusError.take(&error)
        }
        self.init(raw: raw, loop: loop)
    }

    /// Connects to a bus at an explicit address.
    public convenience init(address: String, loop: MainLoop) throws(BusError) {
        Message.threadSupport
        var error = DBusError()
        dbus_error_init(&error)
        guard let raw = dbus_connection_open_private(address, &error) else { throw BusError.take(&error) }
        guard dbus_bus_register(raw, &error) != 0 else {
            dbus_connection_close(raw)
            dbus_connection_unref(raw)
            throw BusError.take(&error)
        }
        self.init(raw: raw, loop: loop)
    }

    private init(raw: OpaquePointer, loop: MainLoop) {
        self.raw = raw
        self.loop = loop
        dbus_connection_set_exit_on_disconnect(raw, 0)
        attachToLoop()
    }

    deinit {
        close()
        dbus_connection_unref(raw)
    }

    /// Writes out what is queued, leaves the loop and closes the
    /// connection; the bus releases every name it owned. Safe to call more
    /// than once; deinit calls it too.
    public func close() {
        guard !closed else { return }
        closed = true
        if dbus_connection_get_is_connected(raw) != 0 { dbus_connection_flush(raw) }
        detachFromLoop()
        if filterInstalled {
            dbus_connection_remove_filter(raw, Self.filterFunction, Unmanaged.passUnretained(self).toOpaque())
            filterInstalled = false
        }
        signalFilters = []
        for (path, handler) in objectHandlers {
            dbus_connection_unregister_object_path(raw, path)
            handler.release()
        }
        objectHandlers = [:]
        dbus_connection_close(raw)
    }

    public var isConnected: Bool { dbus_connection_get_is_connected(raw) != 0 }

    /// This connection's unique name on the bus, such as ":1.42".
    public var uniqueName: String { dbus_bus_get_unique_name(raw).map { String(cString: $0) } ?? "" }

    // MARK: Names

    public enum NameRequest: Sendable, Equatable {
        case primaryOwner
        case alreadyOwner
        /// Another connection owns the name (and the request asked not to queue).
        case exists
        case inQueue
    }

    /// Asks for a well-known name; `queue: false` makes a taken name fail at
    /// once instead of waiting in line.
    public func requestName(_ name: String, queue: Bool = false) throws(BusError) -> NameRequest {
        var error = DBusError()
        dbus_error_init(&error)
        let flags = queue ? 0 : UInt32(DBUS_NAME_FLAG_DO_NOT_QUEUE)
        let result = dbus_bus_request_name(raw, name, flags, &error)
        if dbus_error_is_set(&error) != 0 { throw BusError.take(&error) }
        switch result {
        case DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER: return .primaryOwner
        case DBUS_REQUEST_NAME_REPLY_ALREADY_OWNER: return .alreadyOwner
        case DBUS_REQUEST_NAME_REPLY_IN_QUEUE: return .inQueue
        default: return .exists
        }
    }

    public func releaseName(_ name: String) {
        var error = DBusError()
        dbus_error_init(&error)
        _ = dbus_bus_release_name(raw, name, &error)
        if dbus_error_is_set(&error) != 0 { dbus_error_free(&error) }
    }

    /// Subscribes this connection to broadcast messages matching `rule`.
    public func addMatch(_ rule: String) throws(BusError) {
        var error = DBusError()
        dbus_error_init(&error)
        dbus_bus_add_match(raw, rule, &error)
        if dbus_error_is_set(&error) != 0 { throw BusError.take(&error) }
    }

    /// Ends a subscription of `addMatch`, without waiting for the bus: its
    /// answer would tell nothing to act on.
    public func removeMatch(_ rule: String) {
        dbus_bus_remove_match(raw, rule, nil)
    }

    // MARK: Sending

    /// Queues a message; the loop writes it out.
    public func send(_ message: Message) {
        guard dbus_connection_send(raw, message.raw, nil) != 0 else { Message.outOfMemory() }
    }

    public func flush() { dbus_connection_flush(raw) }

    /// Calls a method; `completion` runs on the loop with the reply or the
    /// error (including NoReply after `timeout`, one of BusCall's).
    public func call(_ message: Message, timeout: Duration = BusCall.timeout,
                     completion: @escaping (Result<Message, BusError>) -> Void)
    {
        var pending: OpaquePointer?
        guard dbus_connection_send_with_reply(raw, message.raw, &pending, BusCall.milliseconds(timeout)) != 0 else {
            Message.outOfMemory()
        }
        guard let pending else {
            completion(.failure(BusError(name: "org.freedesktop.DBus.Error.Disconnected", message: "The bus connection is closed.")))
            return
        }
        let box = Unmanaged.passRetained(Callback<OpaquePointer, Void> { pending in
            guard let reply = dbus_pending_call_steal_reply(pending) else {
                completion(.failure(BusError(name: BusError.Names.noReply, message: "No reply arrived.")))
                return
            }
            completion(Self.result(of: Message(taking: reply)))
        })
        dbus_pending_call_set_notify(
            pending,
            { pending, data in
                Unmanaged<Callback<OpaquePointer, Void>>.fromOpaque(data!).takeUnretainedValue().body(pending!)
            }, box.toOpaque(), { Unmanaged<Callback<OpaquePointer, Void>>.fromOpaque($0!).release() })
        dbus_pending_call_unref(pending)
    }

    /// Calls a method and waits for the reply outside the loop; for
    /// command-line clients.
    public func callAndWait(_ message: Message, timeout: Duration = BusCall.timeout) throws(BusError) -> Message {
        var error = DBusError()
        dbus_error_init(&error)
        guard let reply = dbus_connection_send_with_reply_and_block(raw, message.raw, BusCall.milliseconds(timeout), &error) else {
            throw BusError.take(&error)
        }
        return Message(taking: reply)
    }

    static func result(of reply: Message) -> Result<Message, BusError> {
        guard reply.kind == .error else { return .success(reply) }
        let text = (try? reply.arguments())?.first?.stringValue ?? ""
        return .failure(BusError(name: reply.errorName ?? BusError.Names.failed, message: text))
    }

    // MARK: Receiving

    /// Handles every message to `path` (and, with `fallback`, below it).
    /// The handler returns false for messages it does not handle.
    public func register(path: String, fallback: Bool = false, _ handler: @escaping (Message) -> Bool) {
        let box = Unmanaged.passRetained(Callback<Message, Bool>(handler))
        objectHandlers[path]?.release()
        objectHandlers[path] = box
        var vtable = DBusObjectPathVTable()
        vtable.message_function = { _, message, data in
            let handler = Unmanaged<Callback<Message, Bool>>.fromOpaque(data!).takeUnretainedValue()
            return handler.body(Message(retaining: message!)) ? DBUS_HANDLER_RESULT_HANDLED : DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
        let registered = fallback
            ? dbus_connection_register_fallback(raw, path, &vtable, box.toOpaque())
            : dbus_connection_register_object_path(raw, path, &vtable, box.toOpaque())
        guard registered != 0 else { Message.outOfMemory() }
    }

    /// A filter added with `addSignalFilter`, to remove it again.
    public struct Filter: Equatable {
        fileprivate let id: Int
    }

    /// The one libdbus filter of the connection: it sees every incoming
    /// message before object dispatch, and passes signals alone on to the
    /// Swift filters, wrapped once. A method call or a reply leaves C at
    /// once: every filter of this project follows signals only, and each
    /// call the agent answers passes through here.
    private static let filterFunction: DBusHandleMessageFunction = { _, message, data in
        guard dbus_message_get_type(message) == DBUS_MESSAGE_TYPE_SIGNAL else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
        return BusConnection.from(data).filter(signal: message!) ? DBUS_HANDLER_RESULT_HANDLED : DBUS_HANDLER_RESULT_NOT_YET_HANDLED
    }

    private func filter(signal raw: OpaquePointer) -> Bool {
        // A copy: a filter may add or remove filters while they run.
        let filters = signalFilters
        guard !filters.isEmpty else { return false }
        let message = Message(retaining: raw)
        return filters.contains { $0.body(message) }
    }

    /// Sees every incoming signal before object dispatch, in the order the
    /// filters were added. The filter returns true when it consumed the
    /// signal; the later filters then do not see it.
    @discardableResult
    public func addSignalFilter(_ filter: @escaping (Message) -> Bool) -> Filter {
        if !filterInstalled {
            guard dbus_connection_add_filter(raw, Self.filterFunction, Unmanaged.passUnretained(self).toOpaque(), nil) != 0
            else { Message.outOfMemory() }
            filterInstalled = true
        }
        nextFilterID += 1
        signalFilters.append((nextFilterID, filter))
        return Filter(id: nextFilterID)
    }

    public func removeSignalFilter(_ filter: Filter) {
        signalFilters.removeAll { $0.id == filter.id }
    }

    // MARK: Loop integration

    /// One watch or timeout of libdbus's, with the loop source serving it:
    /// made, changed and freed on the connection's loop thread only.
    fileprivate final class LoopSource {
        var source: MainLoop.Source?
    }

    private func attachToLoop() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_set_watch_functions(
            raw,
            { watch, data in
                BusConnection.from(data).updateWatch(watch!)
                return 1
            },
            { watch, _ in BusConnection.removeWatch(watch!) },
            { watch, data in BusConnection.from(data).updateWatch(watch!) },
            me, nil)
        dbus_connection_set_timeout_functions(
            raw,
            { timeout, data in
                BusConnection.from(data).updateTimeout(timeout!)
                return 1
            },
            { timeout, _ in BusConnection.removeTimeout(timeout!) },
            { timeout, data in BusConnection.from(data).updateTimeout(timeout!) },
            me, nil)
        dbus_connection_set_dispatch_status_function(
            raw,
            { _, status, data in
                if status == DBUS_DISPATCH_DATA_REMAINS { BusConnection.from(data).scheduleDispatch() }
            }, me, nil)
        scheduleDispatch()
    }

    private static func from(_ data: UnsafeMutableRawPointer?) -> BusConnection {
        Unmanaged<BusConnection>.fromOpaque(data!).takeUnretainedValue()
    }

    private static func loopSource(of data: UnsafeMutableRawPointer?) -> LoopSource? {
        data.map { Unmanaged<LoopSource>.fromOpaque($0).takeUnretainedValue() }
    }

    private func updateWatch(_ watch: OpaquePointer) {
        let state: LoopSource
        if let existing = Self.loopSource(of: dbus_watch_get_data(watch)) {
            state = existing
        } else {
            state = LoopSource()
            dbus_watch_set_data(watch, Unmanaged.passRetained(state).toOpaque()) {
                Unmanaged<LoopSource>.fromOpaque($0!).release()
            }
        }
        state.source?.cancel()
        state.source = nil
        guard dbus_watch_get_enabled(watch) != 0 else { return }
        let flags = dbus_watch_get_flags(watch)
        var events: MainLoop.Events = [.error, .hangUp]
        if flags & DBUS_WATCH_READABLE.rawValue != 0 { events.insert(.readable) }
        if flags & DBUS_WATCH_WRITABLE.rawValue != 0 { events.insert(.writable) }
        state.source = loop.watch(descriptor: dbus_watch_get_unix_fd(watch), for: events) { [unowned self] ready in
            var conditions: UInt32 = 0
            if ready.contains(.readable) { conditions |= DBUS_WATCH_READABLE.rawValue }
            if ready.contains(.writable) { conditions |= DBUS_WATCH_WRITABLE.rawValue }
            if ready.contains(.error) { conditions |= DBUS_WATCH_ERROR.rawValue }
            if ready.contains(.hangUp) { conditions |= DBUS_WATCH_HANGUP.rawValue }
            self.handling { dbus_watch_handle(watch, conditions) }
            self.dispatchAll()
            return .keep
        }
    }

    /// Static: it also runs while the connection is being torn down.
    private static func removeWatch(_ watch: OpaquePointer) {
        guard let state = loopSource(of: dbus_watch_get_data(watch)) else { return }
        state.source?.cancel()
        state.source = nil
    }

    private func updateTimeout(_ timeout: OpaquePointer) {
        let state: LoopSource
        if let existing = Self.loopSource(of: dbus_timeout_get_data(timeout)) {
            state = existing
        } else {
            state = LoopSource()
            dbus_timeout_set_data(timeout, Unmanaged.passRetained(state).toOpaque()) {
                Unmanaged<LoopSource>.fromOpaque($0!).release()
            }
        }
        state.source?.cancel()
        state.source = nil
        guard dbus_timeout_get_enabled(timeout) != 0 else { return }
        let interval = UInt32(max(0, dbus_timeout_get_interval(timeout)))
        state.source = loop.after(milliseconds: interval) { [unowned self] in
            self.handling { dbus_timeout_handle(timeout) }
            self.dispatchAll()
            return .keep
        }
    }

    private static func removeTimeout(_ timeout: OpaquePointer) {
        guard let state = loopSource(of: dbus_timeout_get_data(timeout)) else { return }
        state.source?.cancel()
        state.source = nil
    }

    /// Stops every loop source of this connection; libdbus removes its
    /// watches and timeouts through the static remove functions.
    private func detachFromLoop() {
        dbus_connection_set_dispatch_status_function(raw, nil, nil, nil)
        dbus_connection_set_watch_functions(raw, nil, nil, nil, nil, nil)
        dbus_connection_set_timeout_functions(raw, nil, nil, nil, nil, nil)
        pendingDispatch?.cancel()
        pendingDispatch = nil
    }

    /// Runs a libdbus handle call that is followed at once by a dispatch:
    /// the "data remains" it reports needs no idle source of its own.
    private func handling(_ body: () -> Void) {
        dispatchFollows = true
        body()
        dispatchFollows = false
    }

    private func scheduleDispatch() {
        guard pendingDispatch == nil, !dispatchFollows else { return }
        pendingDispatch = loop.soon { [unowned self] in
            self.pendingDispatch = nil
            self.dispatchAll()
        }
    }

    private func dispatchAll() {
        pendingDispatch?.cancel()
        pendingDispatch = nil
        while dbus_connection_dispatch(raw) == DBUS_DISPATCH_DATA_REMAINS {}
    }
}

/// Driven by one loop, on that loop's thread only: the compiler keeps it there.
@available(*, unavailable)
extension BusConnection: Sendable {}

/// A watch's loop source is the loop's, on its thread only.
@available(*, unavailable)
extension BusConnection.LoopSource: Sendable {}
