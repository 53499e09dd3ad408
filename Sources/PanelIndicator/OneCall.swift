/// What the clicks of one dbusmenu call (an EventGroup) may do, read click
/// by click: the first open (of a timer or of the app) and no other, each
/// Complete and Quit once. A click opens the app once, however many clicks
/// one message carries; Complete and Quit repeated would do nothing more.
/// The clicks are still acted on in turn, so that a Complete changes the
/// menu the next click meets.
public struct OneCall: Sendable, Equatable {
    private var opened = false
    private var done: [PanelIndicator.Action] = []

    public init() {}

    /// The actions of the next click that are still to be done.
    public mutating func admit(_ actions: [PanelIndicator.Action]) -> [PanelIndicator.Action] {
        actions.filter { action in
            switch action {
            case .open, .openApp:
                guard !opened else { return false }
                opened = true
                return true
            case .complete, .quitApp:
                guard !done.contains(action) else { return false }
                done.append(action)
                return true
            case .publish, .register, .withdraw, .emit:
                return true
            }
        }
    }
}
