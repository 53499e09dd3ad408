/// How many of the page's messages the bridge works on at once. A message
/// that waits for the agent or the platform holds memory until it is
/// answered, so at most `limit` are in flight; the lines read past that
/// wait here, in the order they came, and input is read again only once
/// none wait. Memory then stays bounded by the limit and one read's worth
/// of lines, whatever the page's rate: the page's writes wait in the pipe.
struct CallGateMachine {
    struct Settings: Equatable {
        /// Messages in flight at most; the web app's own page never has this many.
        static let standardLimit = 64

        var limit: Int

        init(limit: Int = Self.standardLimit) {
            precondition(limit > 0)
            self.limit = limit
        }
    }

    struct State: Equatable {
        /// Messages handed to the server and not yet answered.
        fileprivate(set) var inFlight = 0
        /// Lines read and not yet handed on, from `head`; those before it
        /// were handed on and emptied.
        fileprivate(set) var waiting: [[UInt8]] = []
        /// The first of `waiting` not yet handed on.
        fileprivate(set) var head = 0
    }

    let settings: Settings
    private(set) var state = State()

    init(settings: Settings = Settings()) {
        self.settings = settings
    }

    /// Input may be read: nothing waits.
    var readsInput: Bool { state.head == state.waiting.count }

    /// Nothing is in flight and nothing waits.
    var isIdle: Bool { state.inFlight == 0 && readsInput }

    /// A line was read from the input: it waits to be handed on.
    mutating func arrived(_ line: [UInt8]) {
        state.waiting.append(line)
    }

    enum ReadyAction: Equatable {
        /// Hand this line to the server; it is counted in flight.
        case handOn([UInt8])
    }

    /// The shell is ready to hand a line on: the next one that waits, or
    /// nil while the limit is reached or nothing waits.
    mutating func ready() -> ReadyAction? {
        guard state.inFlight < settings.limit, state.head < state.waiting.count else { return nil }
        let line = state.waiting[state.head]
        state.waiting[state.head] = []
        state.head += 1
        if state.head == state.waiting.count {
            state.waiting.removeAll(keepingCapacity: false)
            state.head = 0
        }
        state.inFlight += 1
        return .handOn(line)
    }

    /// A message in flight was answered (or needed no answer).
    mutating func answered() {
        precondition(state.inFlight > 0)
        state.inFlight -= 1
    }
}
