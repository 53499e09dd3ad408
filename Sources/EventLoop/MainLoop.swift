import CDFLNotify

/// The one event loop of a process: GLib's default main context, which
/// libnotify needs, with libdbus and libcurl driven from it through file
/// descriptor and timeout sources. The process sleeps in poll() until a
/// descriptor is ready, a timeout is due or a signal arrives; nothing here
/// polls.
///
/// Not Sendable: every source is attached to the default context and runs
/// on the thread that calls `run()`.
public final class MainLoop {
    private let loop: OpaquePointer

    public init() {
        loop = g_main_loop_new(nil, 0)
    }

    deinit { g_main_loop_unref(loop) }

    /// Runs until `quit()`.
    public func run() { g_main_loop_run(loop) }

    public func quit() { g_main_loop_quit(loop) }

    /// Runs one iteration without blocking; for tests and for draining
    /// work before exit.
    @discardableResult
    public func iterate(blocking: Bool) -> Bool { g_main_context_iteration(nil, blocking ? 1 : 0) != 0 }

    /// A source attached to the loop; `cancel()` detaches it. Sources also
    /// end when their handler returns `.remove`.
    public struct Source: Hashable, Sendable {
        public let id: UInt32

        public func cancel() {
            if id != 0 { g_source_remove(id) }
        }
    }

    public enum Next {
        case keep
        case remove

        var gboolean: gboolean { self == .keep ? 1 : 0 }
    }

    public struct Events: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        public static let readable = Events(rawValue: G_IO_IN.rawValue)
        public static let writable = Events(rawValue: G_IO_OUT.rawValue)
        public static let error = Events(rawValue: G_IO_ERR.rawValue)
        public static let hangUp = Events(rawValue: G_IO_HUP.rawValue)
    }

    /// Calls `handler` whenever `descriptor` is ready for `events`.
    @discardableResult
    public func watch(descriptor: Int32, for events: Events, _ handler: @escaping (Events) -> Next) -> Source {
        let box = Unmanaged.passRetained(Callback { (events: Events) in handler(events) }).toOpaque()
        let id = g_unix_fd_add_full(
            G_PRIORITY_DEFAULT, descriptor, GIOCondition(rawValue: events.rawValue),
            { _, condition, data in
                let callback = Unmanaged<Callback<Events, Next>>.fromOpaque(data!).takeUnretainedValue()
                return callback.body(Events(rawValue: condition.rawValue)).gboolean
            }, box, { Unmanaged<Callback<Events, Next>>.fromOpaque($0!).release() })
        return Source(id: id)
    }

    /// Calls `handler` after `milliseconds`, and again every `milliseconds`
    /// while it returns `.keep`.
    @discardableResult
    public func after(milliseconds: UInt32, _ handler: @escaping () -> Next) -> Source {
        let box = Unmanaged.passRetained(Callback { (_: Void) in handler() }).toOpaque()
        let id = g_timeout_add_full(
            G_PRIORITY_DEFAULT, milliseconds,
            { data in Unmanaged<Callback<Void, Next>>.fromOpaque(data!).takeUnretainedValue().body(()).gboolean },
            box, { Unmanaged<Callback<Void, Next>>.fromOpaque($0!).release() })
        return Source(id: id)
    }

    /// Calls `handler` once, as soon as the loop has nothing more urgent.
    @discardableResult
    public func soon(_ handler: @escaping () -> Void) -> Source {
        let box = Unmanaged.passRetained(Callback { (_: Void) -> Next in
            handler()
            return .remove
        }).toOpaque()
        let id = g_idle_add_full(
            G_PRIORITY_DEFAULT,
            { data in Unmanaged<Callback<Void, Next>>.fromOpaque(data!).takeUnretainedValue().body(()).gboolean },
            box, { Unmanaged<Callback<Void, Next>>.fromOpaque($0!).release() })
        return Source(id: id)
    }

    /// Calls `handler` on the loop when `signal` arrives (SIGTERM, SIGINT,
    /// SIGHUP, SIGUSR1, SIGUSR2 or SIGWINCH, as GLib allows), instead of in
    /// a signal handler.
    @discardableResult
    public func onSignal(_ signal: Int32, _ handler: @escaping () -> Void) -> Source {
        let box = Unmanaged.passRetained(Callback { (_: Void) -> Next in
            handler()
            return .keep
        }).toOpaque()
        let id = g_unix_signal_add_full(
            G_PRIORITY_HIGH, signal,
            { data in Unmanaged<Callback<Void, Next>>.fromOpaque(data!).takeUnretainedValue().body(()).gboolean },
            box, { Unmanaged<Callback<Void, Next>>.fromOpaque($0!).release() })
        return Source(id: id)
    }
}

/// A Swift closure kept alive while C holds a pointer to it; released by
/// the source's destroy notify.
public final class Callback<Argument, Result> {
    public let body: (Argument) -> Result
    public init(_ body: @escaping (Argument) -> Result) { self.body = body }
}

extension MainLoop {
    /// Starts a program with an argument vector (never through a shell),
    /// with the given environment, without waiting for it; GLib reaps it.
    /// Throws the reason when it cannot be started.
    public static func spawn(_ arguments: [String], environment: [String: String]) throws(SpawnError) {
        precondition(!arguments.isEmpty)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var error: UnsafeMutablePointer<GError>?
        let started = argv.withUnsafeBufferPointer { argvBuffer in
            envp.withUnsafeBufferPointer { envpBuffer in
                g_spawn_async(
                    nil, UnsafeMutablePointer(mutating: argvBuffer.baseAddress),
                    UnsafeMutablePointer(mutating: envpBuffer.baseAddress),
                    GSpawnFlags(rawValue: G_SPAWN_SEARCH_PATH.rawValue | G_SPAWN_STDIN_FROM_DEV_NULL.rawValue),
                    nil, nil, nil, &error)
            }
        }
        guard started != 0 else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            g_clear_error(&error)
            throw SpawnError(message: message)
        }
    }
}

public struct SpawnError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
