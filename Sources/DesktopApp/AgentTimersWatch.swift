import BusNames
import CDFLWebKitGTK
import DesktopAppCore
import Glibc
import SleepTimersAPI

/// What dfl-sleep-agent mirrors, followed on the app's own session bus
/// connection: its List when it appears on the bus and after each
/// TimerChanged or TimerRemoved (several signals in a row make one List);
/// nothing while it is not on the bus. Only the baby's name and the state
/// of each timer are read: the app decides with them whether it stays
/// running with its window closed (BackgroundMachine). Its CompletionFinished,
/// with the names its Lists gave, tells the window what to announce when a
/// sleep is saved from the desktop (SaveAnnouncementMachine).
///
/// Used on the GTK main thread only.
final class AgentTimersWatch {
    static let agentPath = SleepTimers1.objectPath
    static let agentInterface = SleepTimers1.interface
    private typealias Key = SleepTimers1.TimerKey

    var onTimers: ([ListedTimer]) -> Void = { _ in }
    /// The agent's name gained (true) or lost (false) its owner; said before
    /// the empty list that follows a loss.
    var onPresence: (Bool) -> Void = { _ in }
    /// Whether the window is shown, asked as a completion arrives.
    var isWindowShown: () -> Bool = { false }
    var onAnnouncement: (String) -> Void = { _ in }
    private var announcement = SaveAnnouncementMachine()

    private let connection: OpaquePointer
    /// The agent's name on this bus (SleepTimers1.busName): the one it
    /// is called and followed at.
    let agentName: String
    private var nameWatch: guint = 0
    private var subscriptions: [guint] = []
    private var listSource: guint = 0
    private var listing = false
    private var listAgain = false
    private var agentPresent = false

    init(connection: OpaquePointer, agentName: String) {
        self.connection = connection
        self.agentName = agentName
        g_object_ref(raw(connection))
        for member in [SleepTimers1.TimerChanged.name, SleepTimers1.TimerRemoved.name] {
            subscriptions.append(g_dbus_connection_signal_subscribe(
                connection, agentName, Self.agentInterface, member, Self.agentPath, nil,
                DFL_G_DBUS_SIGNAL_FLAGS_NONE, { _, _, _, _, _, _, data in
                    from(data, as: AgentTimersWatch.self).changed()
                }, unretained(self), nil))
        }
        subscriptions.append(g_dbus_connection_signal_subscribe(
            connection, agentName, Self.agentInterface, SleepTimers1.CompletionFinished.name, Self.agentPath, nil,
            DFL_G_DBUS_SIGNAL_FLAGS_NONE, { _, _, _, _, _, parameters, data in
                from(data, as: AgentTimersWatch.self).completionFinished(parameters)
            }, unretained(self), nil))
        nameWatch = g_bus_watch_name_on_connection(
            connection, agentName, DFL_G_BUS_NAME_WATCHER_FLAGS_NONE, { _, _, _, data in
                let watch = from(data, as: AgentTimersWatch.self)
                watch.agentPresent = true
                watch.onPresence(true)
                watch.changed()
            }, { _, _, data in
                let watch = from(data, as: AgentTimersWatch.self)
                let wasPresent = watch.agentPresent
                watch.agentPresent = false
                if wasPresent { watch.onPresence(false) }
                watch.follow([])
            }, unretained(self), nil)
    }

    deinit {
        subscriptions.forEach { g_dbus_connection_signal_unsubscribe(connection, $0) }
        if nameWatch != 0 { g_bus_unwatch_name(nameWatch) }
        if listSource != 0 { g_source_remove(listSource) }
        g_object_unref(raw(connection))
    }

    /// Lists once the signals of one change have all arrived.
    private func changed() {
        guard listSource == 0 else { return }
        listSource = g_idle_add({ data in
            let watch = from(data, as: AgentTimersWatch.self)
            watch.listSource = 0
            watch.list()
            return 0
        }, unretained(self))
    }

    private func list() {
        guard agentPresent else { return }
        guard !listing else {
            listAgain = true
            return
        }
        listing = true
        // No auto-start: the app only follows an agent that runs.
        g_dbus_connection_call(
            connection, agentName, Self.agentPath, Self.agentInterface, SleepTimers1.List.name, nil, nil,
            DFL_G_DBUS_CALL_FLAGS_NO_AUTO_START, BusCall.timeoutMilliseconds, nil, { source, result, data in
                let watch = taken(data, as: AgentTimersWatch.self)
                var error: UnsafeMutablePointer<GError>?
                let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, &error)
                watch.listing = false
                if let reply {
                    let timers = AgentTimersWatch.timers(in: reply)
                    g_variant_unref(reply)
                    if watch.agentPresent { watch.follow(timers) }
                } else {
                    AppLog.log(.notice, AppLogText.timersUnknown(takeGError(error)))
                }
                if watch.listAgain {
                    watch.listAgain = false
                    watch.list()
                }
            }, retained(self))
    }

    /// Only the entries the agent's own rules accept (AgentListEntry): the
    /// name's owner may be another program.
    private func follow(_ timers: [AgentListEntry]) {
        announcement.listed(timers.map { SaveAnnouncementMachine.TimerName(timerID: $0.timerID, babyName: $0.timer.babyName) })
        onTimers(timers.map(\.timer))
    }

    /// CompletionFinished(s timer_id, s outcome, s activity_id), from the
    /// owner of the agent's name (GDBus matches the sender to it); any other
    /// shape is not the agent's and is ignored.
    private func completionFinished(_ parameters: OpaquePointer?) {
        guard let parameters, String(cString: g_variant_get_type_string(parameters)) == "(sss)" else { return }
        let field = { (index: gsize) -> String in
            guard let value = g_variant_get_child_value(parameters, index) else { return "" }
            defer { g_variant_unref(value) }
            return String(cString: g_variant_get_string(value, nil))
        }
        let action = announcement.completionFinished(
            timerID: field(0), outcome: field(1), activityID: field(2), windowShown: isWindowShown())
        if case .announce(let text)? = action { onAnnouncement(text) }
    }

    /// List's reply, `(aa{sv})`: each timer's `timer_id`, `baby_name` and
    /// `state`, those the agent's rules accept; any other shape lists none.
    private static func timers(in reply: OpaquePointer) -> [AgentListEntry] {
        guard String(cString: g_variant_get_type_string(reply)) == "(aa{sv})",
              let array = g_variant_get_child_value(reply, 0) else { return [] }
        defer { g_variant_unref(array) }
        var timers: [AgentListEntry] = []
        for index in 0..<g_variant_n_children(array) {
            guard let entry = g_variant_get_child_value(array, index) else { continue }
            defer { g_variant_unref(entry) }
            if let timer = AgentListEntry(
                timerID: string(entry, Key.timerID.rawValue) ?? "", babyName: string(entry, Key.babyName.rawValue) ?? "",
                state: string(entry, Key.state.rawValue) ?? "") { timers.append(timer) }
        }
        return timers
    }

    static func string(_ dictionary: OpaquePointer, _ key: String) -> String? {
        guard let value = g_variant_lookup_value(dictionary, key, nil) else { return nil }
        defer { g_variant_unref(value) }
        guard String(cString: g_variant_get_type_string(value)) == "s" else { return nil }
        return String(cString: g_variant_get_string(value, nil))
    }
}

/// On the GTK main thread only, where GLib calls it back: the compiler keeps it there.
@available(*, unavailable)
extension AgentTimersWatch: Sendable {}
