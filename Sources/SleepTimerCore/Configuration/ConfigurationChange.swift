/// What a reloaded configuration changes, setting by setting: what the
/// agent applies at once, and what only takes effect at its next start
/// (the HTTP client's trust and proxy and the panel indicator are set up
/// once).
public struct ConfigurationChange: Sendable, Equatable {
    /// Settings changed that apply now, as "[group] key".
    public var applied: [String] = []
    /// Settings changed that need a restart of the agent.
    public var needsRestart: [String] = []

    public var isEmpty: Bool { applied.isEmpty && needsRestart.isEmpty }

    public init(from old: Configuration, to new: Configuration) {
        func note(_ changed: Bool, _ setting: String, restart: Bool = false) {
            guard changed else { return }
            if restart { needsRestart.append(setting) } else { applied.append(setting) }
        }
        note(old.allowedOrigins != new.allowedOrigins, "[platform] allowed-origins")
        note(old.pinnedPublicKeys != new.pinnedPublicKeys, "[platform] pinned-public-keys", restart: true)
        note(old.certificateAuthorities != new.certificateAuthorities, "[platform] ca-file", restart: true)
        note(old.proxy != new.proxy, "[platform] proxy", restart: true)
        note(old.deepLinkBase != new.deepLinkBase, "[app] deep-link-base")
        note(old.urlOpener != new.urlOpener, "[app] url-opener")
        note(old.appInBackground != new.appInBackground, "[app] background")
        note(old.liveElapsed != new.liveElapsed, "[notifications] live-elapsed")
        note(old.indicator != new.indicator, "[indicator] show", restart: true)
        note(old.renewalLead != new.renewalLead, "[timers] renew-before-expiry-minutes")
        note(old.maximumTokenLifetime != new.maximumTokenLifetime, "[timers] max-token-lifetime-hours")
        // Whatever else differs is a setting this list does not know yet:
        // safest to say it needs a restart.
        var known = new
        known.allowedOrigins = old.allowedOrigins
        known.pinnedPublicKeys = old.pinnedPublicKeys
        known.certificateAuthorities = old.certificateAuthorities
        known.proxy = old.proxy
        known.deepLinkBase = old.deepLinkBase
        known.urlOpener = old.urlOpener
        known.appInBackground = old.appInBackground
        known.liveElapsed = old.liveElapsed
        known.indicator = old.indicator
        known.renewalLead = old.renewalLead
        known.maximumTokenLifetime = old.maximumTokenLifetime
        note(known != old, "other settings", restart: true)
    }
}
