import SleepTimerCore

/// The words of the agent's global shortcuts: what the desktop's keyboard
/// settings (and GNOME's dialog) list each one as.
public enum GlobalShortcutText {
    public static func description(of shortcut: GlobalShortcutsMachine.Shortcut) -> String {
        switch shortcut {
        // TRANSLATORS: A global keyboard shortcut, as the desktop's
        // keyboard settings list it: completes the one Sleep that is
        // running.
        case .completeRunningSleep: return tr("Complete the running Sleep")
        // TRANSLATORS: A global keyboard shortcut, as the desktop's
        // keyboard settings list it: opens the app at the running Sleep.
        case .openRunningSleep: return tr("Open the running Sleep")
        }
    }
}
