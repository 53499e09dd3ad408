/// Where Tab and Shift+Tab take the keyboard in the window, so that they
/// cycle through the header bar and the page and never stop anywhere
/// unseen.
///
/// WebKit moves the focus out of the page itself at the page's last (or,
/// backwards, first) control, and then hands the same key event back as
/// one it did not handle: left to GTK, that one Tab would move the focus a
/// second time. Coming into the page, the page must be given the Tab too,
/// so that it focuses its first (or last) control at once rather than
/// taking the focus as a whole, with nothing to show it.
public struct TabFocusMachine: Sendable, Equatable {
    public struct State: Sendable, Equatable {
        /// The time of the last Tab the page was given, whose echo WebKit
        /// may hand back.
        public var givenToPage: UInt32?
    }

    private(set) var state = State()

    public init() {}

    public enum TabPressedAction: Sendable, Equatable {
        /// The page has the focus: the key is the page's.
        case toPage
        /// The key WebKit hands back after moving the focus out of the
        /// page: it has done its work.
        case drop
        /// The focus is in the window's own controls: move it one step,
        /// as GTK does, and give the key to the page if it lands there.
        case moveFocus
    }

    /// A Tab was pressed at `time` (the key event's own) while the focus is
    /// in the page or not.
    public mutating func tabPressed(time: UInt32, focusInPage: Bool) -> TabPressedAction {
        if focusInPage {
            state.givenToPage = time
            return .toPage
        }
        if state.givenToPage == time {
            state.givenToPage = nil
            return .drop
        }
        return .moveFocus
    }

    /// The focus came into the page with this Tab, which the page is then
    /// given.
    public mutating func gaveToPage(time: UInt32) { state.givenToPage = time }
}
