/// How many of the page's messages the bridge works on at once. A message
/// that waits for the agent or the platform holds memory until it is
/// answered, so at most `limit` are in flight; the lines read past that
/// wait here, in the order they came, and input is read again only once
/// none wait. Memory then stays bounded by the limit and one read's worth
/// of lines, whatever the page's rate: the page's writes wait in the pipe.
struct CallGate {
    /// Messages in flight at most; the web app's own page never has this many.
    static let standardLimit = 64

    let limit: Int
    /// Messages handed to the server and not yet answered.
    private(set) var inFlight = 0
    private var waiting: [[UInt8]] = []
    /// The first of `waiting` not yet handed on.
    private var head = 0

    init(limit: Int = Self.standardLimit) {
        precondition(limit > 0)
        self.limit = limit
    }

    /// Input may be read: nothing waits.
    var readsInput: Bool { head == waiting.count }

    /// Nothing is in flight and nothing waits.
    var isIdle: Bool { inFlight == 0 && readsInput }

    /// A line read from the input, to be handed on by `next()`.
    mutating func arrived(_ line: [UInt8]) {
        waiting.append(line)
    }

    /// The next line to hand to the server, counted in flight; nil while
    /// the limit is reached or nothing waits.
    mutating func next() -> [UInt8]? {
        guard inFlight < limit, head < waiting.count else { return nil }
        let line = waiting[head]
        waiting[head] = []
        head += 1
        if head == waiting.count {
            waiting.removeAll(keepingCapacity: false)
            head = 0
        }
        inFlight += 1
        return line
    }

    /// A message was answered (or needed no answer).
    mutating func finished() {
        precondition(inFlight > 0)
        inFlight -= 1
    }
}
