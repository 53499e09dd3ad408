import CDFLGLib

/// The one event loop of a process: a GLib main loop, which libnotify
/// needs, with libdbus and libcurl driven from it through file-descriptor
/// and timeout sources. The process sleeps in poll() until a descriptor is
/// ready, a timeout is due or a signal arrives; nothing here polls.
///
/// Each loop has a main context of its own, made the thread-default context
/// of the thread that creates it, so that GLib's own users (libnotify's
/// GDBus connection) deliver to it, and two loops (in tests) never run each
/// other's sources. Not Sendable, which the compiler holds: every source
/// runs on the thread that calls `run()`.
public final class MainLoop {
    private let context: OpaquePointer
    private let loop: OpaquePointer

    public init() {
        context = g_main_context_new()
        g_main_context_push_thread_default(context)
        loop = g_main_loop_new(context, 0)
    }

    deinit {
        g_main_loop_unref(loop)
        g_main_context_pop_thread_default(context)
        g_main_context_unref(context)
    }

    /// Runs until `quit()`.
    public func run() { g_main_loop_run(loop) }

    public func quit() { g_main_loop_quit(loop) }

    /// Runs one iteration; `blocking` waits for something to happen.
    @discardableResult
    public func iterate(blocking: Bool) -> Bool { g_main_context_iteration(context, blocking ? 1 : 0) != 0 }

    /// A source attached to the loop; `cancel()` detaches it. Sources also
    /// end when their handler returns `.remove`.
    public final class Source {
        private let source: UnsafeMutablePointer<GSource>

        fileprivate init(_ source: UnsafeMutablePointer<GSource>) {
            self.source = source
        }

        deinit { g_source_unref(source) }

        /// Safe to call more than once, and after the source has ended.
        public func cancel() { g_source_destroy(source) }
    }

    public enum Next {
        case keep
        case remove

        var gboolean: gboolean { self == .keep ? 1 : 0 }
    }

    public struct Events: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        public static let readable = Events(rawValue: DFL_G_IO_IN.rawValue)
        public static let writable = Events(rawValue: DFL_G_IO_OUT.rawValue)
        public static let error = Events(rawValue: DFL_G_IO_ERR.rawValue)
        public static let hangUp = Events(rawValue: DFL_G_IO_HUP.rawValue)
    }

    /// Attaches `source` with `body` as its callback, kept alive until the
    /// source is destroyed.
    private func attach<Argument>(_ source: UnsafeMutablePointer<GSource>, _ function: GSourceFunc,
                                  _ body: Callback<Argument, Next>) -> Source {
        g_source_set_callback(source, function, Unmanaged.passRetained(body).toOpaque()) {
            Unmanaged<AnyObject>.fromOpaque($0!).release()
        }
        g_source_attach(source, context)
        return Source(source)
    }

    /// Calls `handler` whenever `descriptor` is ready for `events`.
    @discardableResult
    public func watch(descriptor: Int32, for events: Events, _ handler: @escaping (Events) -> Next) -> Source {
        let source = g_unix_fd_source_new(descriptor, GIOCondition(rawValue: events.rawValue))!
        // GUnixFDSourceFunc takes (fd, condition, data); GLib calls it
        // through the GSourceFunc slot of the source.
        let function: GUnixFDSourceFunc = { _, condition, data in
            Unmanaged<Callback<Events, Next>>.fromOpaque(data!).takeUnretainedValue().body(Events(rawValue: condition.rawValue)).gboolean
        }
        return attach(source, unsafeBitCast(function, to: GSourceFunc.self), Callback(handler))
    }

    /// Calls `handler` after `milliseconds`, and again every `milliseconds`
    /// while it returns `.keep`.
    @discardableResult
    public func after(milliseconds: UInt32, _ handler: @escaping () -> Next) -> Source {
        let source = g_timeout_source_new(milliseconds)!
        return attach(source, { data in
            Unmanaged<Callback<Void, Next>>.fromOpaque(data!).takeUnretainedValue().body(()).gboolean
        }, Callback { (_: Void) in handler() })
    }

    /// Calls `handler` once, as soon as the loop has nothing more urgent.
    @discardableResult
    public func soon(_ handler: @escaping () -> Void) -> Source {
        let source = g_idle_source_new()!
        return attach(source, { data in
            Unmanaged<Callback<Void, Next>>.fromOpaque(data!).takeUnretainedValue().body(()).gboolean
        }, Callback { (_: Void) -> Next in
            handler()
            return .remove
        })
    }

    /// Calls `handler` on the loop when `signal` arrives (SIGTERM, SIGINT,
    /// SIGHUP, SIGUSR1, SIGUSR2 or SIGWINCH, as GLib allows), instead of in
    /// a signal handler.
    @discardableResult
    public func onSignal(_ signal: Int32, _ handler: @escaping () -> Void) -> Source {
        let source = g_unix_signal_source_new(signal)!
        g_source_set_priority(source, G_PRIORITY_HIGH)
        return attach(source, { data in
            Unmanaged<Callback<Void, Next>>.fromOpaque(data!).takeUnretainedValue().body(()).gboolean
        }, Callback { (_: Void) -> Next in
            handler()
            return .keep
        })
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
                    GSpawnFlags(rawValue: DFL_G_SPAWN_SEARCH_PATH.rawValue | DFL_G_SPAWN_STDIN_FROM_DEV_NULL.rawValue),
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

/// A loop and its sources belong to the thread that runs it: the compiler keeps them there.
@available(*, unavailable)
extension MainLoop: Sendable {}

@available(*, unavailable)
extension MainLoop.Source: Sendable {}

@available(*, unavailable)
extension Callback: Sendable {}
