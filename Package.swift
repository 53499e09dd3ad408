// swift-tools-version:6.0
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

        // MARK: Swift

        /// The domain model and its rules; pure Swift, no C module.
        .target(name: "SleepTimerCore"),

        /// The durable local store: mirrored timers, completion outbox,
        /// notification ids, in one SQLite file.
        .target(
            name: "SleepTimerStore",
            dependencies: ["SleepTimerCore", "CDFLSQLite"]
        ),

        // MARK: Tests

        .testTarget(
            name: "SleepTimerCoreTests",
            dependencies: ["SleepTimerCore", "CDFLNotify"]
        ),
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
