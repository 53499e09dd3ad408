import CDFLWebKitGTK
import Glibc
import SleepTimerCore

/// The app's log, every priority, each line named "dreamsforlittles:" as
/// the bridge's share its stderr. Messages come from AppLogText: ids,
/// origins and reasons, never the text of a message between the page and
/// the bridge.
enum AppLog {
    static let sink = StderrLog(threshold: .debug, program: "dreamsforlittles")

    static func log(_ priority: LogPriority, _ message: String) { sink.log(priority, message) }
}

/// A Swift object as the data of a GLib callback. The objects that connect
/// signals own the widgets they connect to and live as long as the app, so
/// they pass themselves unretained.
@inline(__always) func unretained(_ object: AnyObject) -> gpointer {
    Unmanaged.passUnretained(object).toOpaque()
}

@inline(__always) func from<T: AnyObject>(_ data: gpointer?, as type: T.Type = T.self) -> T {
    Unmanaged<T>.fromOpaque(data!).takeUnretainedValue()
}

/// A one-shot callback's data: retained until the callback takes it back
/// once.
@inline(__always) func retained(_ object: AnyObject) -> gpointer {
    Unmanaged.passRetained(object).toOpaque()
}

@inline(__always) func taken<T: AnyObject>(_ data: gpointer?, as type: T.Type = T.self) -> T {
    Unmanaged<T>.fromOpaque(data!).takeRetainedValue()
}

/// An opaque GLib object pointer as the untyped pointer GObject calls take.
@inline(__always) func raw(_ pointer: OpaquePointer?) -> gpointer? { UnsafeMutableRawPointer(pointer) }

/// Adds the stateless action NAME to `map` (the application, `app.NAME`,
/// or a window, `win.NAME`), with its keyboard shortcuts; `activate` runs
/// for each activation, and goes with the action.
func addAction(
    _ name: String, to map: gpointer, scope: String, application: UnsafeMutablePointer<GtkApplication>?,
    accelerators: [String], _ activate: @escaping () -> Void
) {
    addAction(name, parameterType: nil, to: map) { _ in activate() }
    if !accelerators.isEmpty {
        withCStringArray(accelerators) { gtk_application_set_accels_for_action(application, scope + "." + name, $0) }
    }
}

/// Adds the stateless action NAME that takes a string (`s`), such as a
/// timer's id as a notification's button names it. `activate` is given the
/// string, or nil for a parameter of another type (GApplication checks the
/// type of a call from the bus; this holds for every other caller too).
func addStringAction(_ name: String, to map: gpointer, _ activate: @escaping (String?) -> Void) {
    addAction(name, parameterType: "s", to: map) { parameter in
        guard let parameter, String(cString: g_variant_get_type_string(parameter)) == "s" else { return activate(nil) }
        activate(String(cString: g_variant_get_string(parameter, nil)))
    }
}

private func addAction(_ name: String, parameterType: String?, to map: gpointer,
                       _ activate: @escaping (OpaquePointer?) -> Void)
{
    let type = parameterType.map { g_variant_type_new($0)! }
    let simple = g_simple_action_new(name, type)!
    if let type { g_variant_type_free(type) }
    dfl_connect_pointer(raw(simple), "activate", { _, parameter, data in
        from(data, as: ActionHandler.self).activate(OpaquePointer(parameter))
    }, retained(ActionHandler(activate)), { data, _ in
        Unmanaged<ActionHandler>.fromOpaque(data!).release()
    })
    g_action_map_add_action(dfl_g_action_map(map), simple)
    g_object_unref(raw(simple))
}

/// What an action added by `addAction` does, given its parameter.
private final class ActionHandler {
    let activate: (OpaquePointer?) -> Void
    init(_ activate: @escaping (OpaquePointer?) -> Void) { self.activate = activate }
}

/// A string GLib allocated, freed once copied.
func takeGString(_ pointer: UnsafeMutablePointer<gchar>?) -> String? {
    guard let pointer else { return nil }
    defer { g_free(pointer) }
    return String(cString: pointer)
}

/// A GError's message, the error freed.
func takeGError(_ error: UnsafeMutablePointer<GError>?) -> String {
    guard let error else { return "unknown error" }
    defer { g_error_free(error) }
    return error.pointee.message.map { String(cString: $0) } ?? "unknown error"
}

/// A NULL-terminated argument vector for the duration of `body`.
func withArgumentVector<R>(_ strings: [String], _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> R) -> R {
    var array: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
    array.append(nil)
    defer { array.forEach { free($0) } }
    return array.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
}

/// A NULL-terminated array of C strings for the duration of `body`.
func withCStringArray<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    var array: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0) }
    array.append(nil)
    return array.withUnsafeBufferPointer { body($0.baseAddress!) }
}

/// Casts a GObject pointer of one GLib type to another through a raw
/// pointer, for the types whose checked-cast macro has a shim already
/// applied (or a plain upcast to GObject).
@inline(__always) func gobject(_ pointer: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<GObject> {
    pointer!.assumingMemoryBound(to: GObject.self)
}

/// On the GTK main thread only, where GLib calls it back: the compiler keeps it there.
@available(*, unavailable)
extension ActionHandler: Sendable {}
