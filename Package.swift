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
        /// GLib alone: the event loop needs nothing more, so the processes
        /// that do not notify do not link libnotify.
        .systemLibrary(
            name: "CDFLGLib",
            path: "Sources/CDFLGLib",
            pkgConfig: "glib-2.0",
            providers: [.apt(["libglib2.0-dev"])]
        ),
        /// libnotify; its shim takes GLib from CDFLGLib.
        .systemLibrary(
            name: "CDFLNotify",
            path: "Sources/CDFLNotify",
            pkgConfig: "libnotify",
            providers: [.apt(["libnotify-dev"])]
        ),
        /// GIO, for the agent's one GSettings key (the desktop's clock);
        /// its shim takes GLib from CDFLGLib.
        .systemLibrary(
            name: "CDFLGio",
            path: "Sources/CDFLGio",
            pkgConfig: "gio-2.0",
            providers: [.apt(["libglib2.0-dev"])]
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

        /// Linux calls the Glibc module does not import (gettext among them).
        .target(name: "CDFLLinux"),

        // MARK: Swift

        /// The domain model and its rules; pure Swift, no C module. Mirror's
        /// rules name the fields and refusals in the D-Bus API's words.
        .target(name: "SleepTimerCore", dependencies: ["SleepTimersAPI"]),

        /// The general formats GLib already reads, read by GLib for the
        /// core's seams: zone files (GTimeZone), key files (GKeyFile), ISO
        /// 8601 times (GDateTime) and base64. The core holds the rules,
        /// this target the parsers, so the core stays free of C modules.
        .target(name: "GLibParsing", dependencies: ["SleepTimerCore", "CDFLGLib"]),

        /// The programs' language and clock: glibc's gettext catalogs as the
        /// core's translator, and the locale's time format.
        .target(name: "DFLGettext", dependencies: ["SleepTimerCore", "CDFLLinux"]),

        /// The D-Bus API's names and signatures, for the agent and every
        /// client; pure Swift, checked against the introspection file. The
        /// app's id, under which the agent's second name lives, it takes
        /// from the core's AppIdentity.
        .target(name: "SleepTimersAPI"),

        /// The agent's decisions as values: the completion machine, the
        /// notification machine and the schedule of wake-ups, each a state
        /// machine with no C module and no loop.
        .target(name: "AgentWorkflows", dependencies: ["SleepTimerCore", "SleepTimersAPI"]),

        /// The durable local store: mirrored timers, completion outbox,
        /// notification ids, in one SQLite file.
        .target(
            name: "SleepTimerStore",
            dependencies: ["SleepTimerCore", "CDFLSQLite", "StoreLock"]
        ),

        /// One agent per store: the flock beside it, which dfl-sleepctl
        /// reads too (without SQLite).
        .target(name: "StoreLock"),

        /// The process's one event loop (GLib's), with file-descriptor,
        /// timeout and signal sources.
        .target(name: "EventLoop", dependencies: ["CDFLGLib", "CDFLLinux"]),

        /// The names of the bus's interfaces (the specification's and the
        /// desktop services' this project calls), once, in pure Swift: for
        /// DFLDBus and for the app, which reaches the bus through GIO.
        .target(name: "BusNames"),

        /// libdbus in Swift: messages, values, and a connection driven by
        /// the event loop.
        .target(name: "DFLDBus", dependencies: ["CDFLDBus", "EventLoop", "BusNames"]),

        /// dfl-sleep-agent's shell: the store, the ports and the workflows'
        /// decisions carried out.
        .target(
            name: "SleepAgent",
            dependencies: ["AgentWorkflows", "SleepTimersAPI", "SleepTimerCore", "SleepTimerStore", "DFLDBus", "EventLoop"]
        ),

        /// The agent on the bus: the com.dreamsforlittles.SleepTimers1
        /// object, its arguments read, the agent's changes as signals; and
        /// the desktops' searches (GNOME Shell's provider, KRunner's runner).
        .target(
            name: "SleepTimersService",
            dependencies: ["SleepAgent", "AgentWorkflows", "SleepTimersAPI", "SleepTimerCore", "DFLDBus"],
            resources: [
                .embedInCode("com.dreamsforlittles.SleepTimers1.xml"), .embedInCode("org.gnome.Shell.SearchProvider2.xml"),
                .embedInCode("org.kde.krunner1.xml"),
            ]
        ),

        /// The agent's link opener: the app, the desktop portal or xdg-open.
        .target(name: "LinkOpening", dependencies: ["SleepAgent", "SleepTimerCore", "DFLDBus", "EventLoop"]),

        /// The panel indicator's decisions as values: what the item and its
        /// menu show, which signals say so, what a click does. Pure Swift.
        .target(name: "PanelIndicator", dependencies: ["SleepTimerCore", "SleepTimersAPI"]),

        /// The panel indicator on the bus: an org.kde.StatusNotifierItem
        /// with a com.canonical.dbusmenu menu, registered with the panel's
        /// org.kde.StatusNotifierWatcher.
        .target(
            name: "StatusNotifier",
            dependencies: ["PanelIndicator", "SleepAgent", "SleepTimerCore", "DFLDBus", "EventLoop"],
            resources: [.embedInCode("org.kde.StatusNotifierItem.xml"), .embedInCode("com.canonical.dbusmenu.xml")]
        ),

        /// HTTPS on libcurl's multi interface, driven by the event loop.
        .target(name: "HTTPClient", dependencies: ["CDFLCurl", "EventLoop", "SleepTimerCore"]),

        /// The agent's notification surface: libnotify, and the server on
        /// the bus.
        .target(
            name: "Notifications",
            dependencies: [
                "SleepAgent", "AgentWorkflows", "SleepTimerCore", "SleepTimersAPI", "DFLDBus", "EventLoop", "CDFLNotify", "CDFLGLib", "CDFLLinux",
            ]
        ),

        /// The agent's completion transport: recorded completions sent to
        /// the platform over HTTPS.
        .target(name: "CompletionSender", dependencies: ["SleepAgent", "HTTPClient", "SleepTimerCore"]),

        /// The dfl-sleep-agent process: configuration, store, bus name,
        /// signals, and the parts above wired to one loop.
        .target(
            name: "SleepAgentDaemon",
            dependencies: [
                "SleepAgent", "SleepTimersService", "LinkOpening", "Notifications", "CompletionSender", "StatusNotifier",
                "HTTPClient", "SleepTimerCore", "SleepTimerStore", "StoreLock", "DFLDBus", "EventLoop", "DFLGettext",
                "CDFLLinux", "CDFLGio", "CDFLGLib", "AgentWorkflows", "PanelIndicator", "GLibParsing",
            ]
        ),
        /// Linked by lld with packed relative relocations (DT_RELR, glibc
        /// 2.36): the statically linked Swift runtime's metadata needs about
        /// 27,000 of them, 660 KiB as RELA records that every start pages in
        /// and a few KiB as RELR; the agent stays resident all session.
        .executableTarget(
            name: "dfl-sleep-agent",
            dependencies: ["SleepAgentDaemon", "SleepTimerCore"],
            linkerSettings: [.unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"])]
        ),

        /// dfl-sleepctl: a client of the D-Bus API, as another app would be.
        .target(
            name: "SleepControl",
            dependencies: ["SleepTimersAPI", "SleepTimerCore", "DFLDBus", "EventLoop", "DFLGettext", "StoreLock", "GLibParsing"]
        ),
        .executableTarget(name: "dfl-sleepctl", dependencies: ["SleepControl"]),

        /// dfl-webview-bridge: the WebView's JSON-RPC 2.0 helper.
        .target(
            name: "WebViewBridge",
            dependencies: ["SleepTimersAPI", "SleepTimerCore", "DFLDBus", "EventLoop", "HTTPClient", "CDFLLinux", "StoreLock", "GLibParsing"]
        ),
        .executableTarget(name: "dfl-webview-bridge", dependencies: ["WebViewBridge", "SleepTimerCore"]),

        /// dfl-bench: the agent measured beside floors built in the same run.
        .target(
            name: "Benchmarking",
            dependencies: [
                "SleepTimersAPI", "SleepTimerCore", "SleepTimerStore", "DFLDBus", "EventLoop", "HTTPClient", "DFLTestSupport",
                "GLibParsing",
            ],
            exclude: ["floors"]
        ),
        .executableTarget(name: "dfl-bench", dependencies: ["Benchmarking"]),

        // MARK: The desktop app

        /// The app's decisions in pure Swift: deep links, the origin
        /// policy, the bridge relay, the pages it shows itself, its words.
        .target(
            name: "DesktopAppCore",
            dependencies: ["SleepTimerCore", "SleepTimersAPI"],
            resources: [
                .embedInCode("bridge-isolated-world.js"), .embedInCode("bridge-page-transport.js"),
                .embedInCode("top-frame-clicks.js"),
            ]
        ),
        /// The GTK 4 window and its WebKitGTK view, the bridge child, the
        /// D-Bus single instance: the shell around DesktopAppCore.
        .target(
            name: "DesktopApp",
            dependencies: [
                "DesktopAppCore", "SleepTimerCore", "SleepTimersAPI", "BusNames", "StoreLock", "CDFLWebKitGTK", "GLibParsing",
            ]),
        /// dreamsforlittles, application id com.dreamsforlittles.DreamsForLittles.
        .executableTarget(name: "dreamsforlittles", dependencies: ["DesktopApp", "DFLGettext", "CDFLWebKitGTK"]),

        // MARK: Tests

        /// The test doubles and fixtures every test target shares: a clock
        /// moved by hand, logs that record, drop or check, a temporary
        /// directory, the fixture ids. A file per double; only tests (and
        /// the benchmark) depend on it.
        .target(name: "DFLTestSupport", dependencies: ["SleepTimerCore", "GLibParsing"], path: "Tests/DFLTestSupport"),
        .testTarget(
            name: "SleepTimerCoreTests",
            dependencies: ["SleepTimerCore", "SleepTimersAPI", "DFLTestSupport", "GLibParsing"]
        ),
        /// GLib's readers behind the core's seams, held to the cases the
        /// core's own parsers were tested with.
        .testTarget(name: "GLibParsingTests", dependencies: ["GLibParsing", "SleepTimerCore", "CDFLGLib", "DFLTestSupport"]),
        .testTarget(name: "SleepTimersAPITests", dependencies: ["SleepTimersAPI"]),
        .testTarget(name: "DFLGettextTests", dependencies: ["DFLGettext", "SleepTimerCore"]),
        .testTarget(name: "AgentWorkflowsTests", dependencies: ["AgentWorkflows", "SleepTimersAPI", "DFLTestSupport"]),
        .testTarget(name: "EventLoopTests", dependencies: ["EventLoop"]),
        .testTarget(name: "NotificationsTests", dependencies: ["Notifications", "DFLDBus", "DFLTestSupport"]),
        .testTarget(name: "BusNamesTests", dependencies: ["BusNames"]),
        .testTarget(name: "DFLDBusTests", dependencies: ["DFLDBus"]),
        .testTarget(name: "HTTPClientTests", dependencies: ["HTTPClient", "CDFLCurl"]),
        .testTarget(
            name: "SleepAgentTests",
            dependencies: ["SleepAgent", "AgentWorkflows", "SleepTimerStore", "SleepTimersAPI", "DFLTestSupport", "GLibParsing"]
        ),
        .testTarget(
            name: "SleepTimersServiceTests",
            dependencies: ["SleepTimersService", "SleepAgent", "SleepTimersAPI", "DFLDBus", "DFLTestSupport", "GLibParsing"]
        ),
        .testTarget(name: "LinkOpeningTests", dependencies: ["LinkOpening", "DFLDBus", "SleepTimerCore", "DFLTestSupport"]),
        .testTarget(name: "PanelIndicatorTests", dependencies: ["PanelIndicator", "SleepTimerCore"]),
        .testTarget(name: "StatusNotifierTests", dependencies: ["StatusNotifier", "PanelIndicator", "DFLDBus"]),
        .testTarget(name: "SleepAgentDaemonTests", dependencies: ["SleepAgentDaemon"]),
        .testTarget(name: "SleepControlTests", dependencies: ["SleepControl", "DFLTestSupport"]),
        .testTarget(name: "StoreLockTests", dependencies: ["StoreLock"]),
        .testTarget(name: "WebViewBridgeTests", dependencies: ["WebViewBridge"]),
        .testTarget(name: "BenchmarkingTests", dependencies: ["Benchmarking"]),
        .testTarget(
            name: "DesktopAppCoreTests", dependencies: ["DesktopAppCore", "SleepTimerCore", "DFLTestSupport", "GLibParsing"]),
        .testTarget(
            name: "SleepTimerStoreTests",
            dependencies: ["SleepTimerStore", "DFLTestSupport", "store-crash-child"]
        ),
        /// A child process the store tests kill with SIGKILL in the middle of
        /// a transaction; a test cannot fork itself safely.
        .executableTarget(
            name: "store-crash-child",
            dependencies: ["SleepTimerStore", "DFLTestSupport"],
            path: "Tests/StoreCrashChild"
        ),
    ]
)

// The libFuzzer targets exist only when DFL_FUZZ is set (`make fuzz`, and the
// short runs of `make check`): they have no main of their own, libFuzzer's is
// linked in by `--sanitize=fuzzer`, so an ordinary build could not link them.
if ProcessInfo.processInfo.environment["DFL_FUZZ"] != nil {
    package.targets += [
        .executableTarget(name: "fuzz-jsonrpc",
                          dependencies: ["WebViewBridge", "SleepTimerCore", "EventLoop", "HTTPClient", "DFLTestSupport"],
                          path: "Tests/Fuzz/JSONRPC"),
        .executableTarget(name: "fuzz-mirror",
                          dependencies: ["SleepTimersService", "SleepAgent", "SleepTimersAPI", "DFLDBus", "CDFLDBus", "SleepTimerCore",
                                         "DFLTestSupport", "GLibParsing"],
                          path: "Tests/Fuzz/Mirror"),
        .executableTarget(name: "fuzz-applink", dependencies: ["DesktopAppCore", "SleepTimerCore"],
                          path: "Tests/Fuzz/AppLink"),
    ]
}

