import EventLoop
import HTTPClient
import SleepAgent
import SleepTimerCore
import SleepTimerStore

/// Sends recorded completions to the platform, exactly once in effect.
///
/// Each completion was written to the outbox with its request body before
/// anything was sent; that body is sent as it is, byte for byte, on every
/// attempt, to the origin its token was issued for. The platform answers a
/// repeat of an identical body with its original reply, so a lost reply, a
/// crash or a retry can never make a second activity.
///
/// It sweeps at start-up, when a completion is recorded, at the time the
/// next retry is due (one loop timer, never a polling loop), and when the
/// network comes back.
public final class CompletionSender: AgentObserver {
    private let agent: Agent
    private let http: HTTPClient
    private let loop: MainLoop
    private let clock: any WallClock
    private let log: any LogSink
    private let policy: RetryPolicy
    private var random = SystemRandomNumberGenerator()
    private var inFlight: Set<TimerID> = []
    private var nextSweep: MainLoop.Source?
    /// Entries whose outcome could not be written (disk full, I/O error):
    /// held in memory until this time, so that a failing disk does not turn
    /// into a tight loop of resends. The platform's replay makes the resend
    /// harmless when it comes.
    private var heldUntil: [TimerID: Instant] = [:]
    static let storeFailureHold: Int64 = 30 * Milliseconds.second

    /// How many completions are sent at once. A long backlog (after days
    /// offline) goes out a few at a time instead of opening a socket for
    /// every entry.
    static let maximumInFlight = 4

    public init(agent: Agent, http: HTTPClient, loop: MainLoop, clock: any WallClock, log: any LogSink,
                policy: RetryPolicy = RetryPolicy()) {
        self.agent = agent
        self.http = http
        self.loop = loop
        self.clock = clock
        self.log = log
        self.policy = policy
    }

    /// A pending sweep goes with the sender: the loop may outlive it.
    deinit { nextSweep?.cancel() }

    public func start() {
        sweep()
    }

    /// The network is back: every waiting completion is tried now rather
    /// than at its backoff time.
    public func networkCameBack() {
        log.log(.info, "The network is back; sending waiting completions now.")
        do {
            try agent.store.bringPendingCompletionsForward(to: clock.now())
        } catch {
            log.log(.error, "Cannot reschedule the waiting completions: \(error)")
        }
        sweep()
    }

    // MARK: AgentObserver

    public func timerChanged(_ view: TimerView) {
        if view.stored.state == .saving && !inFlight.contains(view.timer.id) { sweep() }
    }

    public func timerRemoved(_ id: TimerID, reason: RemovalReason) {}
    public func completionFinished(_ id: TimerID, outcome: CompletionOutcome, activityID: String, sleptMinutes: Int64?) {}
    public func propertiesChanged(_ properties: AgentProperties, previous: AgentProperties) {}

    // MARK: Sweeping

    private func sweep() {
        let now = clock.now()
        // A hold that has ended no longer keeps its entry back.
        heldUntil = heldUntil.filter { $0.value > now }
        do {
            // Only as many as can go now: the ones in flight or held are due too.
            let due = try agent.store.dueCompletions(
                at: now, limit: Self.maximumInFlight + inFlight.count + heldUntil.count)
            for record in due where !inFlight.contains(record.timerID) && heldUntil[record.timerID] == nil {
                guard inFlight.count < Self.maximumInFlight else { break }
                send(record)
            }
        } catch {
            log.log(.error, "Cannot read the completion outbox: \(error)")
        }
        scheduleSweep()
    }

    /// One timer for the next entry that falls due and is neither in flight
    /// (its answer starts the next sweep) nor held; none when nothing waits.
    /// Called at the end of a sweep, which has just dropped the ended holds.
    private func scheduleSweep() {
        nextSweep?.cancel()
        nextSweep = nil
        let skipped = inFlight.union(heldUntil.keys)
        let upcoming = (try? agent.store.dueCompletions(at: Instant(millisecondsSince1970: .max), limit: skipped.count + 1)) ?? []
        var next = upcoming.first { !skipped.contains($0.timerID) }?.nextAttemptAt
        if let hold = heldUntil.values.min() { next = min(next ?? hold, hold) }
        guard let next else { return }
        let wait = UInt32(clamping: max(0, next.milliseconds(since: clock.now())))
        nextSweep = loop.after(milliseconds: wait) { [weak self] in
            self?.nextSweep = nil
            self?.sweep()
            return .remove
        }
    }

    private func send(_ record: CompletionRecord) {
        guard let body = record.requestBody else { return }
        let now = clock.now()
        guard now < record.tokenExpiresAt else {
            settle(record, .failed(reason: "the action token expired before the platform could be reached"), state: .failed)
            return
        }
        inFlight.insert(record.timerID)
        log.log(.info, "Sending the completion of timer \(record.timerID) to \(record.scope.apiOrigin) (attempt \(record.attempts + 1)).")
        body.withRevealedBytes { bytes in
            http.post(origin: record.scope.apiOrigin, path: NativeCompletion.path(for: record.timerID), body: bytes) {
                [weak self] result in
                guard let self else { return }
                self.inFlight.remove(record.timerID)
                self.agent.crashPoints.reach(.afterReply, log: self.log)
                let verdict: CompletionVerdict
                switch result {
                case .success(let response):
                    verdict = CompletionReply.verdict(
                        status: response.status, body: response.body, retryAfter: response.header("retry-after"),
                        now: self.clock.now())
                case .failure(let error):
                    verdict = CompletionReply.transportFailure(error.description)
                }
                self.settle(record, verdict, state: nil)
                // A place is free: the next due entry may go now.
                self.sweep()
            }
        }
    }

    private func settle(_ record: CompletionRecord, _ verdict: CompletionVerdict, state: CompletionState?) {
        do {
            switch verdict {
            case .created(let activityID):
                try agent.completionCreated(record, activityID: activityID)
            case .alreadyCompleted:
                try agent.completionFoundDone(record)
            case .needsApp(let reason):
                try agent.completionFailed(record, state: .needsApp, reason: reason)
            case .failed(let reason):
                try agent.completionFailed(record, state: state ?? .failed, reason: reason)
            case .retry(let retryAfter, let reason):
                switch policy.decide(
                    afterAttempt: record.attempts + 1, now: clock.now(), retryAfter: retryAfter,
                    tokenExpiresAt: record.tokenExpiresAt, random: &random)
                {
                case .retry(let next):
                    try agent.completionWillRetry(record, at: next, reason: reason)
                case .giveUpTokenExpires:
                    try agent.completionFailed(
                        record, state: .failed, reason: "\(reason); the action token expires before another attempt")
                }
            }
        } catch {
            // The store failed (disk full, I/O error): the entry stays as it
            // was, pending, and is sent again after a while; the platform's
            // replay makes that harmless.
            heldUntil[record.timerID] = clock.now().adding(milliseconds: Self.storeFailureHold)
            log.log(.error, "Could not record the outcome of the completion of timer \(record.timerID); it is sent again in \(Self.storeFailureHold / 1000) s: \(error.message)")
        }
    }
}
