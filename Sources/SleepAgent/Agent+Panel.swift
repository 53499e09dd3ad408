import AgentWorkflows
import SleepTimerCore

/// A surface that shows the running timers for longer than a notification
/// does: the panel indicator. It hears every change as an observer and
/// wakes on the agent's schedule, never on a timer of its own, so that one
/// wake-up per minute boundary serves it and the notifications together.
public protocol PanelSurface: AgentObserver {
    /// When it next needs the loop (a minute boundary while a host shows
    /// it, the end of a saved moment); nil when never.
    var wakeAt: Instant? { get }
    /// The moment it asked for has come.
    func wake(now: Instant)
    /// Set by the agent: called whenever `wakeAt` may have changed.
    var wakeAtChanged: (() -> Void)? { get set }
}

/// What a panel surface may ask of the agent, so that it holds a port and
/// not the agent itself: the timers as List shows them, and its menu's
/// clicks down the same paths as the notification's buttons.
public protocol PanelHost: AnyObject {
    /// Read for whether the indicator shows, and where the app opens.
    var configuration: Configuration { get }
    func list() throws(ServiceError) -> [TimerView]
    /// Recorded in the outbox and sent by the completion machine, exactly
    /// once; nil for now.
    func complete(_ id: TimerID, completedAt: Instant?) throws(ServiceError)
    /// Opens the app at a timer, or at its start, within `caller`'s
    /// allowance of opens.
    func open(_ id: TimerID, activationToken: String?, caller: String)
    func openApp(activationToken: String?, caller: String)
}

extension Agent: PanelHost {}

extension Agent {
    /// Adds the panel surface as an observer and keeps its wake-ups on the
    /// schedule.
    public func addPanel(_ panel: PanelSurface) {
        addObserver(panel)
        self.panel = panel
        panel.wakeAtChanged = { [weak self, weak panel] in self?.setWake(.panel, at: panel?.wakeAt) }
    }

    func wakePanel(now: Instant) {
        guard let panel else { return }
        panel.wake(now: now)
        setWake(.panel, at: panel.wakeAt)
    }
}
