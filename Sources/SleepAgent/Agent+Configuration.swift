import AgentWorkflows
import SleepTimerCore

extension Agent {
    /// A reloaded configuration: what can change at run time is applied
    /// now (the origins and token lifetime Mirror accepts, deep links, the
    /// opener, the notifications' live elapsed time, the renewal lead);
    /// the rest waits for a restart, and the change says which.
    public func reconfigure(_ new: Configuration) -> ConfigurationChange {
        let change = ConfigurationChange(from: configuration, to: new)
        guard !change.applied.isEmpty else {
            configuration = new
            return change
        }
        let linksChanged = configuration.deepLinkBase != new.deepLinkBase
        configuration = new
        mirrorRule.allowedOrigins = new.allowedOrigins
        publishProperties()
        mirrorRule.maximumTokenLifetime = new.maximumTokenLifetime
        opener.reconfigure(new)
        lifecycle.settings.renewalLead = new.renewalLead
        backgroundLaunch.settings.enabled = new.appInBackground
        applyLifecycle()
        var settings = notifications.settings
        settings.liveElapsed = new.liveElapsed
        notificationsSettingsChanged(settings, now: clock.now())
        if linksChanged {
            // Every timer's deep link in List and TimerChanged moves.
            for id in timers.keys.sorted() { announceStatus(of: id) }
        }
        return change
    }

    /// Where the desktop's own 12/24-hour choice is read, the first time a
    /// timer is to be shown: reading it can load much (GSettings loads
    /// dconf, its schemas and a thread), which an agent holding no timer
    /// need not carry. Until then the format given at start stands.
    public func readTimeFormatWhenNeeded(_ read: @escaping () -> TimeFormat) {
        pendingTimeFormat = read
    }

    /// Reads the desktop's time format, once, when a timer is held.
    func resolveTimeFormatIfNeeded() {
        guard !timers.isEmpty, let read = pendingTimeFormat else { return }
        pendingTimeFormat = nil
        timeFormatChanged(read())
    }

    /// The desktop's clock changed between 12 and 24 hours: every
    /// notification that shows a time of day is written again.
    public func timeFormatChanged(_ format: TimeFormat) {
        guard format != notifications.settings.timeFormat else { return }
        var settings = notifications.settings
        settings.timeFormat = format
        notificationsSettingsChanged(settings, now: clock.now())
    }
}
