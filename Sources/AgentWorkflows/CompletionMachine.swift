import SleepTimerCore
import SleepTimersAPI

/// Why a click's completion time is refused; nothing is recorded then.
public enum CompletionRefusal: Error, Sendable, Equatable {
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

/// What the callers are told of a completion that ended, as the
/// CompletionFinished signal carries it.
public struct CompletionAnnouncement: Sendable, Equatable {
    public let outcome: SleepTimers1.CompletionOutcome
    /// The activity the platform created; empty for the other outcomes.
    public let activityID: String
    /// The saved sleep's length in whole minutes: for `created`, while the
    /// timer is still held (its start is needed).
    public let sleptMinutes: Int64?

    public init(outcome: SleepTimers1.CompletionOutcome, activityID: String = "", sleptMinutes: Int64? = nil) {
        self.outcome = outcome
        self.activityID = activityID
        self.sleptMinutes = sleptMinutes
    }

    /// A completion that cannot succeed from the desktop.
    public static let failed = CompletionAnnouncement(outcome: .failed)
}

/// The completion outbox's decisions: what time a click records, which
/// recorded completions to send now, what each answer means (how the
/// completion ends, what its callers are told and why its timer leaves the
/// list, or a resend with a new body), when to look again. The records
/// themselves live in the store; the machine keeps only what is in flight,
/// what is held back after the store failed to take an outcome, each
/// platform's clock as last measured, and its generator of jitter.
///
/// Every completion was written to the outbox with its request body before
/// anything was sent; that body goes out as it is on every attempt, so the
/// platform's replay makes a repeat harmless. The machine sends at most
/// `maximumInFlight` at once, so that a backlog after days offline does not
/// open a socket for every entry.
public struct CompletionMachine: Sendable {
    public struct Settings: Sendable, Equatable {
        public var retry: RetryRule
        public var maximumInFlight: Int
        /// How long an entry whose outcome could not be written is held
        /// back: a failing disk must not turn into a tight loop of resends.
        public var storeFailureHold: Duration
        /// How far ahead of the agent's clock a click's completion time may
        /// be.
        public var clockSkew: Duration

        public init(
            retry: RetryRule = RetryRule(), maximumInFlight: Int = 4,
            storeFailureHold: Duration = StoreFailure.hold, clockSkew: Duration = .seconds(60)
        ) {
            precondition(maximumInFlight > 0)
            self.retry = retry
            self.maximumInFlight = maximumInFlight
            self.storeFailureHold = storeFailureHold
            self.clockSkew = clockSkew
        }
    }

    /// What the machine remembers between events.
    public struct State: Sendable, Equatable {
        /// Sent, and not answered yet.
        public var inFlight: Set<TimerID> = []
        /// Entries whose outcome the store could not take, until when they
        /// are left alone.
        public var heldUntil: [TimerID: Instant] = [:]
        /// When the machine next needs to look at the outbox; nil when only
        /// an answer can change anything.
        public var wakeAt: Instant?
        /// Each platform's clock minus this desktop's, as last measured (by
        /// the app at its upsert, or from the Date of the platform's own
        /// answer): a click's time is sent in the platform's clock.
        public var platformClockOffsets: [APIOrigin: Duration] = [:]
        /// The jitter of the retries' back-off.
        public var random: RandomSource

        public init(random: RandomSource = .system) {
            self.random = random
        }
    }

    public let settings: Settings
    private(set) var state: State

    public init(settings: Settings = Settings(), random: RandomSource = .system) {
        self.settings = settings
        self.state = State(random: random)
    }

    /// How many entries `outbox` needs to decide: those that may go now,
    /// those it must skip (in flight or held), and one more, the next to
    /// fall due.
    public var readLimit: Int { settings.maximumInFlight + state.inFlight.count + state.heldUntil.count + 1 }

    /// When the next held completion falls due, nil when none waits: the
    /// shell sets its wake-up for the outbox there.
    public var wakeAt: Instant? { state.wakeAt }

    // MARK: A click

    public enum ClickedAction: Sendable, Equatable {
        /// Write the click on this timer to the outbox: `completedAt` by
        /// this desktop's clock, `sentAs` the time the platform is sent;
        /// then hand the record the store returns to `recorded`.
        case record(StoredTimer, completedAt: Instant, sentAs: Instant)
        /// Answer the click with this refusal; nothing is written.
        case refuse(CompletionRefusal)
    }

    /// The time a bus call's `completed_at_ms` asks for: nil for 0 (now),
    /// the instant for a time since 1970, refused when negative. The bus
    /// edge reads it once; every layer below takes the `Instant?`.
    public static func completedAt(busMilliseconds: Int64) throws(CompletionRefusal) -> Instant? {
        guard busMilliseconds >= 0 else { throw .invalidTime }
        return busMilliseconds == 0 ? nil : Instant(millisecondsSince1970: busMilliseconds)
    }

    /// Complete was asked of `timer` (nil: none with that id is mirrored)
    /// at `asked` (nil: now). The time a click records: now by default,
    /// never in the future, and in the platform's clock (the offset last
    /// measured for its origin, if any), in which the start is, never
    /// before it.
    public func clicked(_ stored: StoredTimer?, completedAt asked: Instant?, now: Instant) -> ClickedAction {
        guard let stored else { return .refuse(.unknownTimer) }
        let completedAt = asked ?? now
        guard completedAt.duration(since: now) <= settings.clockSkew else {
            return .refuse(.inFuture)
        }
        let offset = state.platformClockOffsets[stored.timer.scope.apiOrigin] ?? .zero
        var sentAs = completedAt.adding(offset)
        if sentAs < stored.timer.startedAt {
            // "Now" on a desktop whose clock is behind the app's: the sleep
            // ends as it starts rather than before.
            guard asked == nil else { return .refuse(.beforeStart) }
            sentAs = stored.timer.startedAt
        }
        return .record(stored, completedAt: completedAt, sentAs: sentAs)
    }

    /// The app measured `origin`'s platform clock at its upsert (a Mirror
    /// brought the offset): later clicks on its timers are sent in it.
    public mutating func platformClockMeasured(_ offset: Duration, for origin: APIOrigin) {
        state.platformClockOffsets[origin] = offset
    }

    public enum RecordedAction: Sendable, Equatable {
        /// Send this entry's request body to its origin.
        case send(CompletionRecord)
        /// It cannot go at once (every place is taken): read the first
        /// `readLimit` pending entries and pass them to `outbox`.
        case readOutbox
    }

    /// The store wrote a click to the outbox (or an entry's new body, for a
    /// resend) and returned `record`: it goes at once when a place is free,
    /// without reading the outbox back.
    public mutating func recorded(_ record: CompletionRecord, now: Instant) -> RecordedAction {
        let id = record.timerID
        guard state.inFlight.count < settings.maximumInFlight, !state.inFlight.contains(id),
            state.heldUntil[id] == nil, record.nextAttemptAt <= now, now < record.tokenExpiresAt,
            record.requestBody != nil
        else { return .readOutbox }
        state.inFlight.insert(id)
        return .send(record)
    }

    // MARK: The outbox

    public enum OutboxAction: Sendable, Equatable {
        /// Send this entry's request body to its origin.
        case send(CompletionRecord)
        /// Write that the entry cannot succeed (kept visible in `state`,
        /// never retried) and tell its callers.
        case fail(CompletionRecord, CompletionState, reason: String, announcing: CompletionAnnouncement)
        /// Entries failed here left the outbox's pending ones: read again
        /// for those they made room for.
        case readOutbox
    }

    /// The first pending entries of the outbox in sending order, at most
    /// `readLimit` of them, read at `now`.
    public mutating func outbox(_ records: [CompletionRecord], now: Instant) -> [OutboxAction] {
        state.heldUntil = state.heldUntil.filter { $0.value > now }
        var actions: [OutboxAction] = []
        var next: Instant?
        var failedExpired = false
        for record in records where !state.inFlight.contains(record.timerID) && state.heldUntil[record.timerID] == nil {
            guard record.nextAttemptAt <= now else {
                // Sorted by due time: this is the next to fall due.
                next = record.nextAttemptAt
                break
            }
            // Due, but every place is taken: an answer frees one and
            // starts the next sweep, so no wake-up is needed for it.
            guard state.inFlight.count < settings.maximumInFlight else { break }
            guard record.requestBody != nil else { continue }
            guard now < record.tokenExpiresAt else {
                actions.append(.fail(
                    record, .failed, reason: "the action token expired before the platform could be reached",
                    announcing: .failed))
                failedExpired = true
                continue
            }
            state.inFlight.insert(record.timerID)
            actions.append(.send(record))
        }
        if let hold = state.heldUntil.values.min() { next = min(next ?? hold, hold) }
        state.wakeAt = next
        if failedExpired { actions.append(.readOutbox) }
        return actions
    }

    // MARK: An answer

    public enum AnsweredAction: Sendable, Equatable {
        /// The platform has the completion: drop the entry with its timer,
        /// tell the callers, and take the timer off the list for `removal`.
        case finish(CompletionRecord, announcing: CompletionAnnouncement, removal: SleepTimers1.RemovalReason)
        /// Write that the entry cannot succeed (kept visible in `state`,
        /// never retried) and tell its callers.
        case fail(CompletionRecord, CompletionState, reason: String, announcing: CompletionAnnouncement)
        /// Count the failed attempt and try again `at`; on the first
        /// failure only the timer's view changes to "waiting for the
        /// network" (`showsWaiting`), so that later retries do not churn
        /// List and the notification.
        case retry(CompletionRecord, attempts: Int, at: Instant, reason: String, showsWaiting: Bool)
        /// Replace the entry's body with this one and send it again at once:
        /// the platform created nothing, and said why the body it had
        /// cannot succeed.
        case resend(CompletionRecord, body: CompletionRequestBody, because: CompletionResend)
        /// A place is free: read the first `readLimit` pending entries and
        /// pass them to `outbox`.
        case readOutbox
    }

    /// The platform's answer (or the transport's failure) to an entry in
    /// flight, with the platform's clock offset its Date gave, if any (kept
    /// for the origin's later clicks), and the timer as the agent holds it
    /// now (nil: no longer mirrored): its token may be newer than the one
    /// sent, and its start gives the saved sleep's length.
    public mutating func answered(
        _ record: CompletionRecord, _ verdict: CompletionVerdict, now: Instant, platformClockOffset: Duration? = nil,
        timer: StoredTimer? = nil
    ) -> [AnsweredAction] {
        state.inFlight.remove(record.timerID)
        if let platformClockOffset { state.platformClockOffsets[record.scope.apiOrigin] = platformClockOffset }
        switch verdict {
        case .created(let activityID):
            let minutes = timer.map { max(0, record.completedAt.milliseconds(since: $0.timer.startedAt)) / Milliseconds.minute }
            return [
                .finish(
                    record, announcing: CompletionAnnouncement(outcome: .created, activityID: activityID, sleptMinutes: minutes),
                    removal: .completed),
                .readOutbox,
            ]
        case .alreadyCompleted:
            return [.finish(record, announcing: CompletionAnnouncement(outcome: .alreadyCompleted), removal: .completedElsewhere), .readOutbox]
        case .needsApp(let reason):
            return [.fail(record, .needsApp, reason: reason, announcing: .failed), .readOutbox]
        case .failed(let reason):
            return [.fail(record, .failed, reason: reason, announcing: .failed), .readOutbox]
        case .tokenRevoked(let reason):
            // Only a token other than the one sent can do better.
            guard let token = timer?.timer.token, let old = record.requestBody,
                let body = NativeCompletion.withToken(token, old), body != old
            else { return [.fail(record, .needsApp, reason: reason, announcing: .failed), .readOutbox] }
            return [.resend(record, body: body, because: .newerToken), .readOutbox]
        case .clockRejected(let reason):
            // Once, and only with the platform's clock to go by.
            guard !record.retimed, let platformClockOffset else {
                return [.fail(record, .failed, reason: reason, announcing: .failed), .readOutbox]
            }
            let completedAt = record.completedAt.adding(platformClockOffset)
            guard let body = record.requestBody.flatMap({ NativeCompletion.retimed($0, completedAt: completedAt) }) else {
                return [
                    .fail(
                        record, .failed, reason: "the platform refused the completion's time, and it could not be corrected",
                        announcing: .failed),
                    .readOutbox,
                ]
            }
            return [.resend(record, body: body, because: .platformClock), .readOutbox]
        case .retry(let retryAfter, let reason):
            let attempt = record.attempts + 1
            switch settings.retry.nextAttempt(
                afterAttempt: attempt, now: now, retryAfter: retryAfter, tokenExpiresAt: record.tokenExpiresAt,
                random: &state.random)
            {
            case .retry(let next):
                return [.retry(record, attempts: attempt, at: next, reason: reason, showsWaiting: attempt == 1), .readOutbox]
            case .giveUpTokenExpires:
                return [
                    .fail(
                        record, .failed, reason: "\(reason); the action token expires before another attempt",
                        announcing: .failed),
                    .readOutbox,
                ]
            }
        }
    }

    // MARK: The store, the network

    /// The store could not take the outcome of an entry (or its new body);
    /// it is still pending there, and is left alone for the hold.
    public mutating func outcomeNotStored(_ id: TimerID, now: Instant) {
        let until = now.adding(settings.storeFailureHold)
        state.heldUntil[id] = until
        state.wakeAt = min(state.wakeAt ?? until, until)
    }

    public enum NetworkBackAction: Sendable, Equatable {
        /// Make every pending entry due at this moment.
        case bringPendingForward(to: Instant)
        /// Read the first `readLimit` pending entries and pass them to
        /// `outbox`.
        case readOutbox
    }

    /// The network came back: waiting out a backoff would only delay.
    public func networkBack(now: Instant) -> [NetworkBackAction] {
        [.bringPendingForward(to: now), .readOutbox]
    }
}
