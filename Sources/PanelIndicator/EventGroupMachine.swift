import SleepTimerCore

/// What the clicks of one dbusmenu call (an EventGroup, or a single Event)
/// may do, read click by click: the first open (of a timer or of the app)
/// and no other, each Complete and Quit once. A click opens the app once,
/// however many clicks one message carries; Complete and Quit repeated
/// would do nothing more. The clicks are still acted on in turn, so that a
/// Complete changes the menu the next click meets. One machine serves one
/// call.
public struct EventGroupMachine: Sendable {
    public struct State: Sendable, Equatable {
        /// An open of this call was done.
        public fileprivate(set) var opened = false
        /// The Completes and Quit of this call that were done.
        public fileprivate(set) var done: [ClickedAction] = []

        /// A call whose clicks have not been read yet.
        public init() {}
    }

    private(set) var state = State()

    public init() {}

    /// What a click of the call leads to.
    public enum ClickedAction: Sendable, Equatable {
        /// The agent's Complete, as the notification's button does it.
        case complete(TimerID)
        /// The agent's open, at this timer.
        case open(TimerID, activationToken: String?)
        case openApp(activationToken: String?)
        /// The app's `quit` action: the running app ends, window or not.
        case quitApp
    }

    /// The item read the call's next click as `click`: what of it is still
    /// to be done; nil when nothing is (a click on nothing, or one already
    /// done in this call).
    public mutating func clicked(_ click: PanelItemMachine.MenuEventAction) -> ClickedAction? {
        switch click {
        case .unknownItem, .ignored:
            return nil
        case .open(let id, let token):
            return open(.open(id, activationToken: token))
        case .openApp(let token):
            return open(.openApp(activationToken: token))
        case .complete(let id):
            return once(.complete(id))
        case .quitApp:
            return once(.quitApp)
        }
    }

    private mutating func open(_ action: ClickedAction) -> ClickedAction? {
        guard !state.opened else { return nil }
        state.opened = true
        return action
    }

    private mutating func once(_ action: ClickedAction) -> ClickedAction? {
        guard !state.done.contains(action) else { return nil }
        state.done.append(action)
        return action
    }
}
