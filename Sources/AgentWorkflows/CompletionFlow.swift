import SleepTimerCore

/// How a recorded completion ends up, as the flow decides it from the
/// platform's answer; the agent writes it to the store.
public enum CompletionSettlement: Sendable, Equatable {
    /// The platform created the activity (now, or before a lost reply).
    case created(activityID: String)
    /// The timer was finished in the app or on another device.
    case alreadyCompleted
    /// The completion cannot succeed from the desktop: kept visible in
    /// `state`, never retried.
    case failed(CompletionState, reason: String)
    /// The attempt may succeed later: `attempts` failed so far.
    case retry(attempts: Int, at: Instant, reason: String)

    /// Whether the timer's view changes to "waiting for the network": on
    /// the first failure only, so that later retries do not churn List and
    /// the notification.
    public var showsWaiting: Bool {
        guard case .retry(let attempts, _, _) = self else { return false }
        return attempts == 1
    }
}

/// Why a click's completion time is refused; nothing is recorded then.
public enum CompletionRefusal: Sendable, Equatable {
    /// No timer with this id is mirrored.
    case unknownTimer
    /// Neither 0 (now) nor a time since 1970.
    case invalidTime
    /// Later than the agent's clock allows.
    case inFuture
    /// Before the timer started, by the platform's clock.
    case beforeStart
}

/// Why a recorded completion is sent again at once with another body.
public enum CompletionResend: Sendable, Equatable {
    /// With the timer's newer token: the platform revoked the one sent.
    case newerToken
    /// With the time in the platform's clock: the platform refused the
    /// time sent. Once only.
    case platformClock
}

/// The completion outbox's decisions: what time a click records, which
/// recorded completions to send now, what each answer means (a resend with
/// a new body among them), when to look again. The records themselves
/// live in the store; the flow keeps only what is in flight and what is
/// held back after the store failed to take an outcome.
///
/// Every completion was written to the outbox with its request body before
/// anything was sent; that body goes out as it is on every attempt, so the
/// platform's replay makes a repeat harmless. The flow sends at most
/// `maximumInFlight` at once, so that a backlog after days offline does not
/// open a socket for every entry.
public struct CompletionFlow: Sendable {
    public let policy: RetryPolicy
    public let maximumInFlight: Int
    /// How long an entry whose outcome could not be written is held back:
    /// a failing disk must not turn into a tight loop of resends.
    public let storeFailureHold: Int64
    /// How far ahead of the agent's clock a click's completion time may be.
    public static let clockSkew = Milliseconds.minute

    public private(set) var inFlight: Set<TimerID> = []
    public private(set) var heldUntil: [TimerID: Instant] = [:]
    /// When the flow next needs to look at the outbox; nil when only an
    /// answer can change anything.
    public private(set) var wakeAt: Instant?
    private var random: RandomSource

    public init(
        policy: RetryPolicy = RetryPolicy(), maximumInFlight: Int = 4,
        storeFailureHold: Int64 = StoreFailure.hold, random: RandomSource = .system
    ) {
        precondition(maximumInFlight > 0)
        self.policy = policy
        self.maximumInFlight = maximumInFlight
        self.storeFailureHold = storeFailureHold
        self.random = random
    }

    public enum Event: Sendable, Equatable {
        /// Complete was asked of `timer` (nil: none with that id is
        /// mirrored) at `completedAtMilliseconds` (0: now), with the
        /// platform's clock offset last measured for its origin, if any.
        case clicked(StoredTimer?, completedAtMilliseconds: Int64, now: Instant, platformClockOffset: Int64?)
        /// A timer was mirrored, recorded or settled: one being saved and
        /// not yet in flight is sent first.
        case timerChanged(StoredTimer)
        /// The first pending entries of the outbox in sending order, at most
        /// `readLimit` of them, read at `now`.
        case outbox([CompletionRecord], now: Instant)
        /// The platform's answer (or the transport's failure) to an entry in
        /// flight, with the platform's clock offset its Date gave, if any,
        /// and the token the timer holds now (nil: none, or no timer).
        case answered(
            CompletionRecord, CompletionVerdict, now: Instant, platformClockOffset: Int64? = nil,
            currentToken: ActionToken? = nil)
        /// The store could not take the outcome of an entry; it is still
        /// pending there.
        case outcomeNotStored(TimerID, now: Instant)
        /// The network came back: waiting out a backoff would only delay.
        case networkBack(now: Instant)
    }

    public enum Action: Sendable, Equatable {
        /// Write the click to the outbox: `completedAt` by this desktop's
        /// clock, `sentAs` the time the platform is sent.
        case record(TimerID, completedAt: Instant, sentAs: Instant)
        /// Answer the click with this refusal; nothing is written.
        case refuse(CompletionRefusal)
        /// Send this entry's request body to its origin.
        case send(CompletionRecord)
        /// Write how the entry ended (or when it is tried again).
        case settle(CompletionRecord, CompletionSettlement)
        /// Replace the entry's body with this one and send it again at once:
        /// the platform created nothing, and said why the body it had
        /// cannot succeed.
        case resend(CompletionRecord, body: CompletionRequestBody, because: CompletionResend)
        /// Make every pending entry due at this moment.
        case bringPendingForward(to: Instant)
        /// Read the first `readLimit` pending entries and pass them in as
        /// `.outbox`.
        case readOutbox
    }

    /// How many entries `.outbox` needs to decide: those that may go now,
    /// those it must skip (in flight or held), and one more, the next to
    /// fall due.
    public var readLimit: Int { maximumInFlight + inFlight.count + heldUntil.count + 1 }

    public mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .clicked(let timer, let milliseconds, let now, let offset):
            return [clicked(timer, completedAtMilliseconds: milliseconds, now: now, platformClockOffset: offset)]
        case .timerChanged(let stored):
            return stored.state == .saving && !inFlight.contains(stored.timer.id) ? [.readOutbox] : []
        case .outbox(let records, let now):
            return sweep(records, now: now)
        case .answered(let record, let verdict, let now, let offset, let token):
            inFlight.remove(record.timerID)
            if case .tokenRevoked(let reason) = verdict {
                // Only a token other than the one sent can do better.
                guard let token, let old = record.requestBody, let body = NativeCompletion.withToken(token, old),
                    body != old
                else { return [.settle(record, .failed(.needsApp, reason: reason)), .readOutbox] }
                return [.resend(record, body: body, because: .newerToken), .readOutbox]
            }
            if case .clockRejected(let reason) = verdict {
                // Once, and only with the platform's clock to go by.
                guard !record.retimed, let offset else {
                    return [.settle(record, .failed(.failed, reason: reason)), .readOutbox]
                }
                let completedAt = record.completedAt.adding(milliseconds: offset)
                guard let body = record.requestBody.flatMap({ NativeCompletion.retimed($0, completedAt: completedAt) })
                else {
                    return [.settle(record, .failed(
                        .failed, reason: "the platform refused the completion's time, and it could not be corrected")),
                        .readOutbox]
                }
                return [.resend(record, body: body, because: .platformClock), .readOutbox]
            }
            // A place is free: the next due entry may go now.
            return [.settle(record, settlement(of: verdict, for: record, now: now)), .readOutbox]
        case .outcomeNotStored(let id, let now):
            heldUntil[id] = now.adding(milliseconds: storeFailureHold)
            if let wakeAt { self.wakeAt = min(wakeAt, heldUntil[id]!) } else { wakeAt = heldUntil[id] }
            return []
        case .networkBack(let now):
            return [.bringPendingForward(to: now), .readOutbox]
        }
    }

    /// The time a click records: now by default, never in the future, and
    /// in the platform's clock, in which the start is, never before it.
    private func clicked(_ stored: StoredTimer?, completedAtMilliseconds: Int64, now: Instant, platformClockOffset: Int64?)
        -> Action
    {
        guard let stored else { return .refuse(.unknownTimer) }
        guard completedAtMilliseconds >= 0 else { return .refuse(.invalidTime) }
        let completedAt = completedAtMilliseconds == 0 ? now : Instant(millisecondsSince1970: completedAtMilliseconds)
        guard completedAt.milliseconds(since: now) <= Self.clockSkew else { return .refuse(.inFuture) }
        var sentAs = completedAt.adding(milliseconds: platformClockOffset ?? 0)
        if sentAs < stored.timer.startedAt {
            // "Now" on a desktop whose clock is behind the app's: the sleep
            // ends as it starts rather than before.
            guard completedAtMilliseconds == 0 else { return .refuse(.beforeStart) }
            sentAs = stored.timer.startedAt
        }
        return .record(stored.timer.id, completedAt: completedAt, sentAs: sentAs)
    }

    private mutating func sweep(_ records: [CompletionRecord], now: Instant) -> [Action] {
        heldUntil = heldUntil.filter { $0.value > now }
        var actions: [Action] = []
        var next: Instant?
        var settledExpired = false
        for record in records where !inFlight.contains(record.timerID) && heldUntil[record.timerID] == nil {
            guard record.nextAttemptAt <= now else {
                // Sorted by due time: this is the next to fall due.
                next = record.nextAttemptAt
                break
            }
            // Due, but every place is taken: an answer frees one and
            // starts the next sweep, so no wake-up is needed for it.
            guard inFlight.count < maximumInFlight else { break }
            guard record.requestBody != nil else { continue }
            guard now < record.tokenExpiresAt else {
                actions.append(.settle(record, .failed(
                    .failed, reason: "the action token expired before the platform could be reached")))
                settledExpired = true
                continue
            }
            inFlight.insert(record.timerID)
            actions.append(.send(record))
        }
        if let hold = heldUntil.values.min() { next = min(next ?? hold, hold) }
        wakeAt = next
        // Entries settled here left the outbox's pending ones: read again
        // for those they made room for.
        if settledExpired { actions.append(.readOutbox) }
        return actions
    }

    private mutating func settlement(of verdict: CompletionVerdict, for record: CompletionRecord, now: Instant)
        -> CompletionSettlement
    {
        switch verdict {
        case .created(let activityID):
            return .created(activityID: activityID)
        case .alreadyCompleted:
            return .alreadyCompleted
        case .needsApp(let reason), .tokenRevoked(let reason):
            return .failed(.needsApp, reason: reason)
        case .failed(let reason), .clockRejected(let reason):
            return .failed(.failed, reason: reason)
        case .retry(let retryAfter, let reason):
            let attempt = record.attempts + 1
            switch policy.decide(
                afterAttempt: attempt, now: now, retryAfter: retryAfter, tokenExpiresAt: record.tokenExpiresAt,
                random: &random)
            {
            case .retry(let next):
                return .retry(attempts: attempt, at: next, reason: reason)
            case .giveUpTokenExpires:
                return .failed(.failed, reason: "\(reason); the action token expires before another attempt")
            }
        }
    }
}
