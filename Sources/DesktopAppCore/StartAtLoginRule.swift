import SleepTimersAPI

/// Whether the agent starts at login: a choice the person makes (the app's
/// menu, or the desktop's own settings) and keeps. It lives where the
/// desktop keeps it, so that the app and the desktop's settings show the
/// same thing:
///
/// - on the host, in a user entry in `~/.config/autostart` named as the
///   .deb's `/etc/xdg/autostart` entry: `Hidden=true` turns the .deb's
///   entry off (the XDG way; KDE's settings write it, GNOME's write
///   `X-GNOME-Autostart-enabled=false`), and a `/dev/null` link in the
///   user's `graphical-session.target.wants` masks the .deb's systemd unit
///   at login without masking the unit itself, which D-Bus activation
///   still starts;
/// - in the Flatpak, in the app's own memory (its state folder), since the
///   sandbox may not read `~/.config/autostart` (Flathub refuses that
///   permission): the Background portal writes its entry when the app asks
///   for autostart and removes it when asked for none, and the app asks only
///   at its first start and when the person chooses in its menu
///   (SandboxAgentMachine), never at a later start, so an entry the
///   desktop's settings disabled is never written back.
///
/// Turning it off does not stop the agent: it runs while the app or a call
/// starts it, and a Sleep running across a reboot has no notification until
/// the app is opened.
public enum StartAtLoginRule {
    /// An autostart entry as found.
    public enum Entry: Sendable, Equatable {
        case missing
        case enabled
        /// `Hidden=true` or `X-GNOME-Autostart-enabled=false`.
        case disabled
    }

    /// The entry a file holds (nil: no file), read as the desktops read it:
    /// line by line, the keys of its `[Desktop Entry]` group only, a line
    /// they would not understand skipped rather than the file refused.
    public static func entry(parsing text: String?) -> Entry {
        guard let text else { return .missing }
        var inEntry = false
        for rawLine in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = String(rawLine).trimmingSpaces
            if line.hasPrefix("[") {
                inEntry = line == "[Desktop Entry]"
                continue
            }
            guard inEntry, let equals = line.firstIndex(of: "=") else { continue }
            let key = String(line[..<equals]).trimmingSpaces
            let value = String(line[line.index(after: equals)...]).trimmingSpaces
            if (key == "Hidden" && value == "true") || (key == "X-GNOME-Autostart-enabled" && value == "false") {
                return .disabled
            }
        }
        return .enabled
    }

    /// Whether Start at login is on, as the app finds it at its start.
    /// On the host: unless the user entry disables it or the unit's login
    /// start is masked. In the Flatpak, whose sandbox cannot read the
    /// entry: as the app remembers (on, unless the menu turned it off).
    public static func isOn(sandboxed: Bool, entry: Entry, loginMasked: Bool, rememberedOff: Bool) -> Bool {
        if sandboxed { return !rememberedOff }
        return entry != .disabled && !loginMasked
    }

    /// What the app does to make the choice so.
    public enum Step: Sendable, Equatable {
        /// Host: write the user entry with `Hidden=true` (replacing what is there).
        case writeDisablingEntry
        /// Host: remove the user entry, so the .deb's applies again.
        case removeUserEntry
        /// Host: link the unit's name in the user's
        /// `graphical-session.target.wants` to /dev/null.
        case maskLoginStart
        /// Host: remove that link.
        case unmaskLoginStart
        /// Flatpak: remember "off" in the state folder (true), or forget it.
        case rememberOff(Bool)
        /// Flatpak: RequestBackground with this autostart (SandboxAgentMachine).
        case askThePortal(autostart: Bool)
    }

    /// What the app does at its start so that the choice found holds
    /// everywhere, without ever turning it on: on the host, an entry the
    /// desktop's settings disabled (which GNOME or KDE under systemd would
    /// not apply to the unit) gets the unit's login start masked, and a
    /// mask without a disabling entry gets the entry (the entry of the
    /// person's own is never rewritten); in the Flatpak nothing, as the
    /// portal is not asked again at a start.
    public static func stepsAtStart(sandboxed: Bool, entry: Entry, loginMasked: Bool, rememberedOff: Bool) -> [Step] {
        if sandboxed { return [] }
        switch (entry == .disabled, loginMasked) {
        case (true, false): return [.maskLoginStart]
        case (false, true): return [.writeDisablingEntry]
        default: return []
        }
    }

    /// The steps that turn Start at login on or off.
    public static func steps(turningOn on: Bool, sandboxed: Bool) -> [Step] {
        if sandboxed { return [.rememberOff(!on), .askThePortal(autostart: on)] }
        return on ? [.removeUserEntry, .unmaskLoginStart] : [.writeDisablingEntry, .maskLoginStart]
    }

    /// The user entry that turns the .deb's autostart entry off.
    public static let disablingEntry = """
        # Start at login turned off in Dreams for Littles (its menu); turning it
        # on again there removes this file.
        [Desktop Entry]
        Type=Application
        Name=\(AppIdentity.name) Sleep Timers
        Hidden=true

        """

    /// The app's stateful action (`app.start-at-login`) behind the menu's
    /// check item; activating it toggles.
    public static let actionName = "start-at-login"

    /// The .deb's autostart entry's file name, which a user entry of the
    /// same name overrides.
    public static let hostEntryName = AppIdentity.agentID + "-autostart.desktop"
    /// The agent's systemd unit, which the .deb enables for
    /// graphical-session.target.
    public static let unitName = "dfl-sleep-agent.service"
}

extension String {
    fileprivate var trimmingSpaces: String {
        var text = Substring(self)
        while text.first == " " || text.first == "\t" { text = text.dropFirst() }
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
