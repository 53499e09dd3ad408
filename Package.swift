// swift-tools-version:6.0
import Foundation
import PackageDescription

/// The Linux desktop bridge for the Dreams for Littles Sleep timer.
///
/// C libraries come in as system-library targets (one module map and one
/// shim header each, prefixed `CDFL` so they cannot clash with the
/// toolchain's own modules); the domain rules live in a core that imports no
/// C module; executables stay thin.
let package = Package(
    name: "dreamsforlittles-desktop",
    targets: [
        // MARK: C libraries

        .systemLibrary(
            name: "CDFLDBus",
            path: "Sources/CDFLDBus",
            pkgConfig: "dbus-1",
            providers: [.apt(["libdbus-1-dev"])]
        ),
        .systemLibrary(
            name: "CDFLNotify",
            path: "Sources/CDFLNotify",
            pkgConfig: "libnotify",
            providers: [.apt(["libnotify-dev"])]
        ),
        .systemLibrary(
            name: "CDFLSQLite",
            path: "Sources/CDFLSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CDFLCurl",
            path: "Sources/CDFLCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        /// GTK 4 and WebKitGTK 6.0 (with GLib, GIO and JavaScriptCore) for
        /// the desktop app; nothing else imports it.
        .systemLibrary(
            name: "CDFLWebKitGTK",
            path: "Sources/CDFLWebKitGTK",
            pkgConfig: "webkitgtk-6.0",
            providers: [.apt(["libgtk-4-dev", "libwebkitgtk-6.0-dev"])]
        ),

        /// Linux calls the Glibc module does not import.
        .target(name: "CDFLLinux"),

        // MARK: Swift

        /// The domain model and its rules; pure Swift, no C module.
        .target(name: "SleepTimerCore"),

        /// The durable local store: mirrored timers, completion outbox,
        /// notification ids, in one SQLite file.
        .target(
            name: "SleepTimerStore",
            dependencies: ["SleepTimerCore", "CDFLSQLite"]
        ),

        /// The process's one event loop (GLib's), with file-descriptor,
        /// timeout and signal sources.
        .target(name: "EventLoop", dependencies: ["CDFLNotify"]),

        /// libdbus in Swift: messages, values, and a connection driven by
        /// the event loop.
        .target(name: "DFLDBus", dependencies: ["CDFLDBus", "EventLoop"]),

        /// dfl-sleep-agent's logic: the D-Bus API over the store.
        .target(
            name: "SleepAgent",
            dependencies: ["SleepTimerCore", "SleepTimerStore", "DFLDBus", "EventLoop"],
            resources: [.embedInCode("com.dreamsforlittles.SleepTimers1.xml")]
        ),

        /// HTTPS on libcurl's multi interface, driven by the event loop.
        .target(name: "HTTPClient", dependencies: ["CDFLCurl", "EventLoop", "SleepTimerCore"]),

        /// The agent's notifications, posted with libnotify.
        .target(
            name: "Notifications",
            dependencies: ["SleepAgent", "SleepTimerCore", "SleepTimerStore", "DFLDBus", "EventLoop", "CDFLNotify"]
        ),

        /// Sends recorded completions to the platform.
        .target(
            name: "CompletionSender",
            dependencies: ["SleepAgent", "HTTPClient", "SleepTimerCore", "SleepTimerStore", "EventLoop"]
        ),

        /// The dfl-sleep-agent process: configuration, store, bus name,
        /// signals, and the parts above wired to one loop.
        .target(
            name: "SleepAgentDaemon",
            dependencies: [
                "SleepAgent", "Notifications", "CompletionSender", "HTTPClient", "SleepTimerCore", "SleepTimerStore",
                "DFLDBus", "EventLoop", "CDFLLinux",
            ]
        ),
        .executableTarget(name: "dfl-sleep-agent", dependencies: ["SleepAgentDaemon"]),

        /// dfl-sleepctl: a client of the D-Bus API, as another app would be.
        .target(name: "SleepControl", dependencies: ["SleepTimerCore", "DFLDBus", "EventLoop"]),
        .executableTarget(name: "dfl-sleepctl", dependencies: ["SleepControl"]),

        /// dfl-webview-bridge: the WebView's JSON-RPC 2.0 helper.
        .target(
            name: "WebViewBridge",
            dependencies: ["SleepTimerCore", "DFLDBus", "EventLoop", "HTTPClient", "CDFLLinux"]
        ),
        .executableTarget(name: "dfl-webview-bridge", dependencies: ["WebViewBridge"]),

        /// dfl-bench: the agent measured beside floors built in the same run.
        .target(
            name: "Benchmarking",
            dependencies: ["SleepTimerCore", "SleepTimerStore", "DFLDBus", "EventLoop", "HTTPClient"],
            exclude: ["floors"]
        ),
        .executableTarget(name: "dfl-bench", dependencies: ["Benchmarking"]),

        // MARK: The desktop app

        /// The app's decisions in pure Swift: deep links, the origin
        /// policy, the bridge relay, the pages it shows itself, its words.
        .target(
            name: "DesktopAppCore",
            dependencies: ["SleepTimerCore"],
            resources: [.embedInCode("bridge-isolated-world.js"), .embedInCode("bridge-page-transport.js")]
        ),
        /// The GTK 4 window and its WebKitGTK view, the bridge child, the
        /// D-Bus single instance: the shell around DesktopAppCore.
        .target(name: "DesktopApp", dependencies: ["DesktopAppCore", "SleepTimerCore", "CDFLWebKitGTK"]),
        /// dreamsforlittles, application id com.dreamsforlittles.App.
        .executableTarget(name: "dreamsforlittles", dependencies: ["DesktopApp"]),

        // MARK: Tests

        .testTarget(
            name: "SleepTimerCoreTests",
            dependencies: ["SleepTimerCore", "CDFLNotify"]
        ),
        .testTarget(name: "EventLoopTests", dependencies: ["EventLoop"]),
        .testTarget(name: "DFLDBusTests", dependencies: ["DFLDBus"]),
        .testTarget(name: "HTTPClientTests", dependencies: ["HTTPClient"]),
        .testTarget(name: "SleepAgentTests", dependencies: ["SleepAgent"]),
        .testTarget(name: "SleepAgentDaemonTests", dependencies: ["SleepAgentDaemon"]),
        .testTarget(name: "SleepControlTests", dependencies: ["SleepControl"]),
        .testTarget(name: "WebViewBridgeTests", dependencies: ["WebViewBridge"]),
        .testTarget(name: "BenchmarkingTests", dependencies: ["Benchmarking"]),
        .testTarget(name: "DesktopAppCoreTests", dependencies: ["DesktopAppCore", "SleepTimerCore"]),
        .testTarget(
            name: "SleepTimerStoreTests",
            dependencies: ["SleepTimerStore", "store-crash-child"]
        ),
        /// A child process the store tests kill with SIGKILL in the middle of
        /// a transaction; a test cannot fork itself safely.
        .executableTarget(
            name: "store-crash-child",
            dependencies: ["SleepTimerStore"],
            path: "Tests/StoreCrashChild"
        ),
    ]
)

// The libFuzzer targets exist only when DFL_FUZZ is set (`make fuzz`, and the
// short runs of `make check`): they have no main of their own, libFuzzer's is
// linked in by `--sanitize=fuzzer`, so an ordinary build could not link them.
if ProcessInfo.processInfo.environment["DFL_FUZZ"] != nil {
    package.targets += [
        .executableTarget(name: "fuzz-jsonrpc", dependencies: ["WebViewBridge", "SleepTimerCore", "EventLoop", "HTTPClient"],
                          path: "Tests/Fuzz/JSONRPC"),
        .executableTarget(name: "fuzz-mirror", dependencies: ["SleepAgent", "DFLDBus", "CDFLDBus", "SleepTimerCore"],
                          path: "Tests/Fuzz/Mirror"),
        .executableTarget(name: "fuzz-applink", dependencies: ["DesktopAppCore", "SleepTimerCore"],
                          path: "Tests/Fuzz/AppLink"),
    ]
}

