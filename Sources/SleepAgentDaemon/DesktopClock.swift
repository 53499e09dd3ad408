import CDFLGio
import CDFLGLib
import Glibc
import SleepTimerCore

/// The desktop's own choice between a 12- and a 24-hour clock, GNOME's
/// org.gnome.desktop.interface clock-format, which can differ from the
/// locale's: where it is made, the notifications follow the clock at the
/// top of the screen, not LC_TIME.
///
/// "Made" means set by the user (a value of their own in dconf) or, in a
/// GNOME session, whatever GNOME's clock shows, its default included.
/// Elsewhere an untouched key says nothing (XFCE installs the schema but
/// shows its own clock), and the locale decides.
///
/// Read through GSettings only when the schema is installed: g_settings_new
/// aborts the process on a missing one. Where dconf cannot write its change
/// flag (the unit's sandbox keeps $XDG_RUNTIME_DIR read-only), it reads
/// afresh each time, and its warnings about that are left out of the log.
/// Changes arrive as the `changed` signal on the agent's loop (the
/// thread-default context when the settings are made, at the first read),
/// so a switch in GNOME's settings reaches the notifications at once.
final class DesktopClock {
    static let schema = "org.gnome.desktop.interface"
    static let key = "clock-format"

    private var loaded = false
    private var loadedSettings: UnsafeMutablePointer<GSettings>?
    private var handler: gulong = 0
    private let gnomeSession: Bool
    /// Called on the loop's thread with the new choice (nil: none made).
    var changed: ((HourCycle?) -> Void)?

    private let environment: [String: String]
    private let log: any LogSink

    /// Reads nothing yet: GSettings (dconf's module, the compiled schemas,
    /// dconf's worker thread) is loaded at the first `hourCycle`, which the
    /// agent asks for when it first has a timer to show. An agent with no
    /// timer carries none of it.
    init(environment: [String: String], log: any LogSink) {
        self.environment = environment
        self.log = log
        gnomeSession = (environment["XDG_CURRENT_DESKTOP"] ?? "").split(separator: ":").contains("GNOME")
    }

    /// The settings object, made at the first read; nil where the schema is
    /// not installed.
    private var settings: UnsafeMutablePointer<GSettings>? {
        if !loaded { load() }
        return loadedSettings
    }

    private func load() {
        loaded = true
        guard let schema = Self.lookUpSchema() else { return }
        defer { g_settings_schema_unref(schema) }
        if !Self.dconfFlagWritable(environment: environment) {
            dfl_leave_out_dconf_flag_warnings()
            log.log(.info, "dconf cannot write its change flag in the runtime directory (read-only in the sandbox): GNOME's clock-format is read afresh each time, and dconf's warnings about the flag are left out.")
        }
        loadedSettings = g_settings_new_full(schema, nil, nil)
        guard let settings = loadedSettings else { return }
        let box = Unmanaged.passRetained(WeakClock(self)).toOpaque()
        // Connected before the first read: GSettings reports changes only of
        // keys read while a handler is connected.
        handler = dfl_settings_connect_changed(
            settings, "changed::\(Self.key)",
            { _, _, data in
                guard let clock = Unmanaged<WeakClock>.fromOpaque(data!).takeUnretainedValue().target else { return }
                clock.changed?(clock.hourCycle)
            }, box, { data, _ in Unmanaged<WeakClock>.fromOpaque(data!).release() })
    }

    deinit {
        guard let settings = loadedSettings else { return }
        g_signal_handler_disconnect(settings, handler)
        g_object_unref(settings)
    }

    /// The clock the desktop shows, or nil where it has made no choice (or
    /// has no such setting).
    var hourCycle: HourCycle? {
        guard let settings else { return nil }
        let value = gnomeSession ? g_settings_get_value(settings, Self.key) : g_settings_get_user_value(settings, Self.key)
        guard let value else { return nil }
        defer { g_variant_unref(value) }
        guard g_variant_classify(value) == G_VARIANT_CLASS_STRING, let text = g_variant_get_string(value, nil) else {
            return nil
        }
        return HourCycle(clockFormat: String(cString: text))
    }

    /// The schema when it is installed and has the key, else nil.
    private static func lookUpSchema() -> OpaquePointer? {
        guard let source = g_settings_schema_source_get_default(),
            let schema = g_settings_schema_source_lookup(source, Self.schema, 1)
        else { return nil }
        guard g_settings_schema_has_key(schema, Self.key) != 0 else {
            g_settings_schema_unref(schema)
            return nil
        }
        return schema
    }

    /// Whether dconf can write its change flag: its directory in the
    /// runtime directory (GLib's g_get_user_runtime_dir), or where that
    /// directory would be made.
    private static func dconfFlagWritable(environment: [String: String]) -> Bool {
        let cache = environment["XDG_CACHE_HOME"] ?? environment["HOME"].map { $0 + "/.cache" }
        guard let runtime = environment["XDG_RUNTIME_DIR"] ?? cache else { return true }
        let flagDirectory = runtime + "/dconf"
        return access(flagDirectory, W_OK) == 0 || (errno == ENOENT && access(runtime, W_OK) == 0)
    }
}

/// What the signal's data points to: the clock, without keeping it alive.
private final class WeakClock {
    weak var target: DesktopClock?
    init(_ target: DesktopClock) { self.target = target }
}

/// Its GSettings object is read and signalled on the agent's loop thread only.
@available(*, unavailable)
extension DesktopClock: Sendable {}

/// Handed to GLib as the signal's data, on the loop thread.
@available(*, unavailable)
extension WeakClock: Sendable {}
