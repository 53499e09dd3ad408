import BusNames
import CDFLWebKitGTK
import DesktopAppCore
import SleepTimerCore
import SleepTimersAPI

/// The notification's Complete and Open as the app's own actions
/// (`app.complete-timer`, `app.open-timer`, the timer's id as target):
/// inside a Flatpak the notification portal delivers a click to the app
/// through org.freedesktop.Application.ActivateAction, D-Bus activating it
/// when it is not running. TimerActionRule decides; this carries it out with
/// GIO's GDBus on the app's own connection.
extension DesktopApplication {
    func addTimerActions() {
        addStringAction(AppActionName.completeTimer.rawValue, to: application) { [weak self] target in
            self?.completeTimer(target: target)
        }
        addStringAction(AppActionName.openTimer.rawValue, to: application) { [weak self] target in
            self?.openTimer(target: target)
        }
    }

    /// Hands the completion to the agent and shows no window. The app is
    /// held until the agent answers, so an app D-Bus activated only for
    /// this (`--gapplication-service`) quits once the hold is released.
    private func completeTimer(target: String?) {
        let id: TimerID
        do {
            id = try TimerActionRule.timerID(target: target)
        } catch {
            logRefusal(
                .warning, AppLogText.refusedTimerAction(AppActionName.completeTimer.rawValue, error),
                by: AppActionName.completeTimer.rawValue)
            return
        }
        guard admit(by: AppActionName.completeTimer.rawValue) else { return }
        guard let connection = g_application_get_dbus_connection(dfl_g_application(application)) else { return }
        let busName = SleepTimers1.busName
        AppLog.log(.info, AppLogText.completing(id, busName))
        g_application_hold(dfl_g_application(application))
        var arguments: [OpaquePointer?] = [g_variant_new_string(id.string), g_variant_new_int64(0)]
        let parameters = g_variant_new_tuple(&arguments, gsize(arguments.count))
        let replyType = g_variant_type_new("(s)")
        defer { g_variant_type_free(replyType) }
        // Auto-start allowed: the agent may not be running yet (at login,
        // after a crash); D-Bus activation brings it up with its store.
        g_dbus_connection_call(
            connection, busName, SleepTimers1.objectPath, SleepTimers1.interface, SleepTimers1.Complete.name,
            parameters, replyType, DFL_G_DBUS_CALL_FLAGS_NONE, BusCall.timeoutMilliseconds, nil, { source, result, data in
                let call = taken(data, as: PendingTimerCall.self)
                var error: UnsafeMutablePointer<GError>?
                let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, &error)
                let outcome: TimerActionRule.CompleteOutcome
                if let reply {
                    var status: UnsafePointer<gchar>?
                    if let value = g_variant_get_child_value(reply, 0) {
                        status = g_variant_get_string(value, nil)
                        outcome = TimerActionRule.completeOutcome(status: status.map { String(cString: $0) }, errorName: nil)
                        g_variant_unref(value)
                    } else {
                        outcome = TimerActionRule.completeOutcome(status: nil, errorName: nil)
                    }
                    g_variant_unref(reply)
                } else {
                    outcome = TimerActionRule.completeOutcome(status: nil, errorName: errorName(error))
                }
                AppLog.log(outcome.isFailure ? .warning : .info, AppLogText.completeOutcome(call.timerID, outcome))
                if let notice = TimerActionRule.notice(after: outcome) {
                    call.application.carryOut(notice, of: call.timerID)
                }
                g_application_release(dfl_g_application(call.application.application))
            }, retained(PendingTimerCall(application: self, timerID: id)))
    }

    /// Raises the window at once (GTK takes the activation token of the
    /// portal's platform data before the action runs, and a window shown
    /// later would not have it), then follows the timer's link as List
    /// gives it.
    private func openTimer(target: String?) {
        let id: TimerID
        do {
            id = try TimerActionRule.timerID(target: target)
        } catch {
            logRefusal(
                .warning, AppLogText.refusedTimerAction(AppActionName.openTimer.rawValue, error),
                by: AppActionName.openTimer.rawValue)
            return
        }
        guard admit(by: AppActionName.openTimer.rawValue) else { return }
        AppLog.log(.info, AppLogText.openingTimer(id))
        presentWindow()
        guard let connection = g_application_get_dbus_connection(dfl_g_application(application)) else { return }
        g_application_hold(dfl_g_application(application))
        g_dbus_connection_call(
            connection, SleepTimers1.busName, SleepTimers1.objectPath, SleepTimers1.interface,
            SleepTimers1.List.name, nil, nil, DFL_G_DBUS_CALL_FLAGS_NONE, BusCall.timeoutMilliseconds, nil, { source, result, data in
                let call = taken(data, as: PendingTimerCall.self)
                var error: UnsafeMutablePointer<GError>?
                let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, &error)
                var listing: (listed: Bool, deepLink: String?)?
                if let reply {
                    listing = listedDeepLink(of: call.timerID, in: reply)
                    g_variant_unref(reply)
                } else {
                    AppLog.log(.notice, AppLogText.timersUnknown(takeGError(error)))
                }
                call.application.followTimerLink(call.timerID, deepLink: listing?.deepLink)
                if let notice = TimerActionRule.notice(afterOpenListed: listing?.listed) {
                    call.application.carryOut(notice, of: call.timerID)
                }
                g_application_release(dfl_g_application(call.application.application))
            }, retained(PendingTimerCall(application: self, timerID: id)))
    }

    /// Replaces or takes away the clicked notification: the portal's id of
    /// a timer's notification is the timer's id, and the app's own
    /// notifications are in the same place.
    fileprivate func carryOut(_ notice: TimerActionRule.StaleNotice, of id: TimerID) {
        switch notice {
        case .alreadyEnded: sendNotification(id: id.string, body: AppText.sleepAlreadyEnded)
        case .withdrawn: g_application_withdraw_notification(dfl_g_application(application), id.string)
        }
    }

    private func followTimerLink(_ id: TimerID, deepLink: String?) {
        if deepLink == nil { AppLog.log(.info, AppLogText.timerNotListed(id)) }
        for step in TimerActionRule.openSteps(for: id, deepLink: deepLink) {
            switch step {
            case .showWindow:
                break  // presented already, where it is
            case .open(let link):
                presentWindow().open(link)
            case .refuse(let refusal):
                logRefusal(.notice, AppLogText.refusedLink(refusal), by: AppActionName.openTimer.rawValue)
                window?.showNotice(AppText.linkRefused(refusal))
            }
        }
    }
}

/// A call to the agent on its way: the app and the timer it is about.
private final class PendingTimerCall {
    let application: DesktopApplication
    let timerID: TimerID
    init(application: DesktopApplication, timerID: TimerID) {
        self.application = application
        self.timerID = timerID
    }
}

/// A failed call's D-Bus error name, as the other end sent it; for a call
/// that failed here (no reply, the connection closed), GIO's message. The
/// error is freed.
private func errorName(_ error: UnsafeMutablePointer<GError>?) -> String {
    guard let error, g_dbus_error_is_remote_error(error) != 0 else { return takeGError(error) }
    defer { g_error_free(error) }
    return takeGString(g_dbus_error_get_remote_error(error)) ?? "an unnamed error"
}

extension TimerActionRule.CompleteOutcome {
    fileprivate var isFailure: Bool {
        if case .failed = self { return true }
        return false
    }
}

/// Whether List's `(aa{sv})` has an entry whose `timer_id` is `id`, and
/// that entry's `deep_link`.
private func listedDeepLink(of id: TimerID, in reply: OpaquePointer) -> (listed: Bool, deepLink: String?) {
    guard let array = g_variant_get_child_value(reply, 0) else { return (false, nil) }
    defer { g_variant_unref(array) }
    for index in 0..<g_variant_n_children(array) {
        guard let entry = g_variant_get_child_value(array, index) else { continue }
        defer { g_variant_unref(entry) }
        let listedID = AgentTimersWatch.string(entry, SleepTimers1.TimerKey.timerID.rawValue).flatMap { TimerID($0) }
        if listedID == id { return (true, AgentTimersWatch.string(entry, SleepTimers1.TimerKey.deepLink.rawValue)) }
    }
    return (false, nil)
}

/// On the GTK main thread only, where GLib calls it back: the compiler keeps it there.
@available(*, unavailable)
extension PendingTimerCall: Sendable {}
