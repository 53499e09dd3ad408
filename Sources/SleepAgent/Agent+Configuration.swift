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
        policy.allowedOrigins = new.allowedOrigins
        policy.maximumTokenLifetime = new.maximumTokenLifetime
        opener.reconfigure(new)
        lifecycle.settings.renewalLead = new.renewalLead
        applyLifecycle()
        var settings = plan.settings
        settings.liveElapsed = new.liveElapsed
        runPlan(.settingsChanged(settings, now: clock.now()))
        if linksChanged {
            // Every timer's deep link in List and TimerChanged moves.
            for id in timers.keys.sorted() { announceStatus(of: id) }
        }
        return change
    }

    /// The desktop's clock changed between 12 and 24 hours: every
    /// notification that shows a time of day is written again.
    public func timeFormatChanged(_ format: TimeFormat) {
        guard format != plan.settings.timeFormat else { return }
        var settings = plan.settings
        settings.timeFormat = format
        runPlan(.settingsChanged(settings, now: clock.now()))
    }
}
