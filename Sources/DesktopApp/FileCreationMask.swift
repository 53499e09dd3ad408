import Glibc

/// The app's umask: 077, so that no file the app or its web processes
/// create is readable by another user, whatever folder (or link) it lands
/// in. The mask the app was started with is kept for the programs it starts
/// for the person (xdg-open and what it runs).
enum FileCreationMask {
    /// The mask the app was started with; set once, before any thread.
    nonisolated(unsafe) private(set) static var inherited: mode_t = 0o022

    static func makePrivate() {
        inherited = umask(0o077)
    }

    /// `inherited` as a GSpawnChildSetupFunc's data: no allocation, so the
    /// child may read it between fork and exec.
    static var encodedInherited: UnsafeMutableRawPointer? {
        UnsafeMutableRawPointer(bitPattern: UInt(inherited) | 0x1000)
    }

    static func decode(_ data: UnsafeMutableRawPointer?) -> mode_t {
        mode_t(UInt(bitPattern: data) & 0o777)
    }
}
