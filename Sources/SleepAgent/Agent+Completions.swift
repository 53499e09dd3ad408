import AgentWorkflows
import SleepTimerCore
import SleepTimerStore

/// Where a recorded completion is sent: the platform, over HTTPS. The
/// transport sends the record's bytes to its origin and says what the
/// answer means; it never touches the store.
public protocol CompletionTransport: AnyObject {
    /// `answered` gets the verdict, and the platform's clock minus ours as
    /// the answer's Date showed it (nil without an answer or a Date).
    func send(_ record: CompletionRecord, answered: @escaping (CompletionVerdict, _ platformClockOffset: Int64?) -> Void)
}

extension Agent {
    /// The network came back: every waiting completion is tried now rather
    /// than at its backoff time.
    public func networkCameBack() {
        log.log(.info, "The network is back; sending waiting completions now.")
        runCompletions(.networkBack(now: clock.now()))
    }

    /// A completion may have become due: read the outbox.
    func lookAtOutbox() {
        guard transport != nil else { return }
        runCompletions(.outbox(readOutbox(), now: clock.now()))
    }

    /// The first pending entries in sending order, as many as the flow
    /// needs to decide.
    func readOutbox() -> [CompletionRecord] {
        do {
            return try store.dueCompletions(at: Instant(millisecondsSince1970: .max), limit: flow.readLimit)
        } catch {
            log.log(.error, "Cannot read the completion outbox: \(error)")
            return []
        }
    }

    /// Hands an event to the completion flow and carries out what it
    /// decides.
    func runCompletions(_ event: CompletionFlow.Event) {
        let actions = flow.handle(event)
        for action in actions { perform(action) }
        setWake(.completions, at: flow.wakeAt)
    }

    func perform(_ action: CompletionFlow.Action) {
        switch action {
        case .send(let record):
            send(record)
        case .settle(let record, let settlement):
            do {
                try settle(record, settlement)
            } catch {
                // The store failed (disk full, I/O error): the entry stays
                // pending and is sent again after a hold; the platform's
                // replay makes that harmless.
                log.log(.error, "Could not record the outcome of the completion of timer \(record.timerID); it is sent again in \(flow.storeFailureHold / 1000) s: \(error.message)")
                runCompletions(.outcomeNotStored(record.timerID, now: clock.now()))
            }
        case .bringPendingForward(let now):
            do {
                try store.bringPendingCompletionsForward(to: now)
            } catch {
                log.log(.error, "Cannot reschedule the waiting completions: \(error)")
            }
        case .readOutbox:
            lookAtOutbox()
        case .resend(let record, let body, let reason):
            resend(record, body: body, because: reason)
        case .record, .refuse:
            // Answers to a click: carried out by Complete itself.
            break
        }
    }

    /// Writes the entry's new body, due at once. The reason only chooses
    /// the store's write (a corrected time is marked, so that it happens
    /// once) and the log's words.
    private func resend(_ record: CompletionRecord, body: CompletionRequestBody, because reason: CompletionResend) {
        let id = record.timerID
        do {
            let written: Bool
            let notice: String
            switch reason {
            case .newerToken:
                written = try store.retokenCompletion(of: id, body: body, now: clock.now())
                notice = "The completion of timer \(id) is sent again with the timer's newer action token."
            case .platformClock:
                written = try store.retimeCompletion(of: id, body: body, now: clock.now())
                notice = "The platform's clock differs from this desktop's; the completion of timer \(id) is sent again with its time in the platform's clock."
            }
            // False when the entry was settled meanwhile: nothing to say.
            guard written else { return }
            log.log(.notice, notice)
        } catch {
            log.log(.error, "Could not write the new request of the completion of timer \(id): \(error.message)")
            runCompletions(.outcomeNotStored(id, now: clock.now()))
        }
    }

    private func send(_ record: CompletionRecord) {
        guard let transport else { return }
        log.log(.info, "Sending the completion of timer \(record.timerID) to \(record.scope.apiOrigin) (attempt \(record.attempts + 1)).")
        transport.send(record) { [weak self] verdict, offset in
            guard let self else { return }
            self.crashPoints.reach(.afterReply, log: self.log)
            if let offset { self.platformClockOffsets[record.scope.apiOrigin] = offset }
            self.runCompletions(.answered(
                record, verdict, now: self.clock.now(), platformClockOffset: offset,
                currentToken: self.timers[record.timerID]?.timer.token))
        }
    }

    // MARK: Outcomes

    private func settle(_ record: CompletionRecord, _ settlement: CompletionSettlement) throws(ServiceError) {
        let id = record.timerID
        switch settlement {
        case .created(let activityID):
            let startedAt = timers[id]?.timer.startedAt
            try storing { () throws(StoreError) in try store.finishCompletion(of: id) }
            log.log(.info, "Timer \(id) saved as activity \(activityID).")
            let minutes = startedAt.map { max(0, record.completedAt.milliseconds(since: $0)) / Milliseconds.minute }
            announceCompletion(id, outcome: .created, activityID: activityID, sleptMinutes: minutes)
            // Known only while the timer's row is held: the plan shows the
            // saved moment with the length it had.
            if let minutes { runPlan(.saved(id, sleptMinutes: minutes, now: clock.now())) }
            announceRemoval([id], reason: .completed)
        case .alreadyCompleted:
            try storing { () throws(StoreError) in try store.finishCompletion(of: id) }
            log.log(.info, "Timer \(id) was already finished elsewhere; nothing more to send.")
            announceCompletion(id, outcome: .alreadyCompleted, activityID: "", sleptMinutes: nil)
            announceRemoval([id], reason: .completedElsewhere)
        case .failed(let state, let reason):
            try storing { () throws(StoreError) in try store.failCompletion(of: id, state: state, lastError: reason) }
            log.log(.warning, "The completion of timer \(id) failed: \(reason).")
            announceCompletion(id, outcome: .failed, activityID: "", sleptMinutes: nil)
            announceChange(of: id)
            applyLifecycle()
            publishProperties()
        case .retry(let attempts, let next, let reason):
            try storing { () throws(StoreError) in
                try store.scheduleRetry(of: id, attempts: attempts, nextAttemptAt: next, lastError: reason)
            }
            log.log(.notice, "The completion of timer \(id) will be tried again in \((max(0, next.milliseconds(since: clock.now())) + 500) / 1000) s: \(reason).")
            if settlement.showsWaiting { announceChange(of: id) }
        }
    }
}
