import AgentWorkflows
import SleepTimerCore
import SleepTimerStore

/// Where a recorded completion is sent: the platform, over HTTPS. The
/// transport sends the record's bytes to its origin and says what the
/// answer means; it never touches the store.
public protocol CompletionTransport: AnyObject {
    /// `answered` gets the verdict, and the platform's clock minus ours as
    /// the answer's Date showed it (nil without an answer or a Date).
    func send(_ record: CompletionRecord, answered: @escaping (CompletionVerdict, _ platformClockOffset: Duration?) -> Void)
}

extension Agent {
    /// The network came back: every waiting completion is tried now rather
    /// than at its backoff time.
    public func networkCameBack() {
        log.log(.info, "The network is back; sending waiting completions now.")
        for action in completions.networkBack(now: clock.now()) {
            switch action {
            case .bringPendingForward(let now):
                do {
                    try store.bringPendingCompletionsForward(to: now)
                } catch {
                    log.log(.error, "Cannot reschedule the waiting completions: \(error)")
                }
            case .readOutbox:
                lookAtOutbox()
            }
        }
    }

    /// A completion may have become due: read the outbox, hand it to the
    /// completion machine and carry out what it decides.
    func lookAtOutbox() {
        guard transport != nil else { return }
        for action in completions.outbox(readOutbox(), now: clock.now()) {
            switch action {
            case .send(let record):
                send(record)
            case .fail(let record, let state, let reason, let announcement):
                fail(record, state, reason: reason, announcing: announcement)
            case .readOutbox:
                lookAtOutbox()
            }
        }
    }

    /// The first pending entries in sending order, as many as the machine
    /// needs to decide.
    private func readOutbox() -> [CompletionRecord] {
        do {
            return try store.dueCompletions(at: Instant(millisecondsSince1970: .max), limit: completions.readLimit)
        } catch {
            log.log(.error, "Cannot read the completion outbox: \(error)")
            return []
        }
    }

    func send(_ record: CompletionRecord) {
        guard let transport else { return }
        log.log(.info, "Sending the completion of timer \(record.timerID) to \(record.scope.apiOrigin) (attempt \(record.attempts + 1)).")
        transport.send(record) { [weak self] verdict, offset in
            guard let self else { return }
            self.crashPoints.reach(.afterReply, log: self.log)
            self.answered(record, verdict, platformClockOffset: offset)
        }
    }

    /// Hands the platform's answer to the completion machine and carries
    /// out what it decides.
    private func answered(_ record: CompletionRecord, _ verdict: CompletionVerdict, platformClockOffset: Duration?) {
        let actions = completions.answered(
            record, verdict, now: clock.now(), platformClockOffset: platformClockOffset, timer: timers[record.timerID])
        for action in actions {
            switch action {
            case .finish(let record, let announcement, let removal):
                finish(record, announcing: announcement, removal: removal)
            case .fail(let record, let state, let reason, let announcement):
                fail(record, state, reason: reason, announcing: announcement)
            case .retry(let record, let attempts, let next, let reason, let showsWaiting):
                retry(record, attempts: attempts, at: next, reason: reason, showsWaiting: showsWaiting)
            case .resend(let record, let body, let reason):
                resend(record, body: body, because: reason)
            case .readOutbox:
                lookAtOutbox()
            }
        }
    }

    // MARK: Outcomes

    /// The store failed (disk full, I/O error): the entry stays pending and
    /// is sent again after a hold; the platform's replay makes that
    /// harmless.
    private func outcomeNotStored(_ id: TimerID, _ error: ServiceError) {
        let hold = completions.settings.storeFailureHold.components.seconds
        log.log(.error, "Could not record the outcome of the completion of timer \(id); it is sent again in \(hold) s: \(error.message)")
        completions.outcomeNotStored(id, now: clock.now())
    }

    private func finish(
        _ record: CompletionRecord, announcing announcement: CompletionAnnouncement, removal: RemovalReason
    ) {
        let id = record.timerID
        let leftOutbox: Bool
        do {
            leftOutbox = try storing { () throws(StoreError) in try store.finishCompletion(of: id) }
        } catch {
            return outcomeNotStored(id, error)
        }
        if leftOutbox { pendingCompletionsChanged(by: -1) }
        if announcement.outcome == .created {
            log.log(.info, "Timer \(id) saved as activity \(announcement.activityID).")
        } else {
            log.log(.info, "Timer \(id) was already finished elsewhere; nothing more to send.")
        }
        announceCompletion(
            id, outcome: announcement.outcome, activityID: announcement.activityID,
            sleptMinutes: announcement.sleptMinutes)
        // Known only while the timer's row is held: the notification
        // machine shows the saved moment with the length it had.
        if let minutes = announcement.sleptMinutes { notificationsSaved(id, sleptMinutes: minutes, now: clock.now()) }
        announceRemoval([id], reason: removal)
    }

    private func fail(
        _ record: CompletionRecord, _ state: CompletionState, reason: String, announcing announcement: CompletionAnnouncement
    ) {
        let id = record.timerID
        let failed: FailedCompletion?
        do {
            failed = try storing { () throws(StoreError) in try store.failCompletion(of: id, state: state, lastError: reason) }
        } catch {
            return outcomeNotStored(id, error)
        }
        log.log(.warning, "The completion of timer \(id) failed: \(reason).")
        announceCompletion(
            id, outcome: announcement.outcome, activityID: announcement.activityID,
            sleptMinutes: announcement.sleptMinutes)
        if let failed {
            pendingCompletionsChanged(by: -1)
            // The timer as the store wrote it, its token gone: nothing is
            // read back.
            if let timer = failed.timer { announceChange(timer) }
        }
        applyLifecycle()
        publishProperties()
    }

    private func retry(_ record: CompletionRecord, attempts: Int, at next: Instant, reason: String, showsWaiting: Bool) {
        let id = record.timerID
        let written: CompletionRecord?
        do {
            written = try storing { () throws(StoreError) in
                try store.scheduleRetry(of: id, attempts: attempts, nextAttemptAt: next, lastError: reason)
            }
        } catch {
            return outcomeNotStored(id, error)
        }
        // Nil when the entry was settled or purged meanwhile: nothing to say.
        guard let written else { return }
        log.log(.notice, "The completion of timer \(id) will be tried again in \((max(0, next.milliseconds(since: clock.now())) + 500) / 1000) s: \(reason).")
        // The timer's own row did not change: the one held, with the
        // attempts the store wrote.
        if showsWaiting, let held = timers[id] {
            announceChange(StoredTimer(timer: held.timer, completionState: written.state, completionAttempts: written.attempts))
        }
    }

    /// Writes the entry's new body, due at once, and sends the entry as the
    /// store returned it, without reading the outbox back. The reason only
    /// chooses the store's write (a corrected time is marked, so that it
    /// happens once) and the log's words.
    private func resend(_ record: CompletionRecord, body: CompletionRequestBody, because reason: CompletionResend) {
        let id = record.timerID
        let written: CompletionRecord?
        do {
            let notice: String
            switch reason {
            case .newerToken:
                written = try store.retokenCompletion(of: id, body: body, now: clock.now())
                notice = "The completion of timer \(id) is sent again with the timer's newer action token."
            case .platformClock:
                written = try store.retimeCompletion(of: id, body: body, now: clock.now())
                notice = "The platform's clock differs from this desktop's; the completion of timer \(id) is sent again with its time in the platform's clock."
            }
            // Nil when the entry was settled meanwhile: nothing to say.
            if written != nil { log.log(.notice, notice) }
        } catch {
            log.log(.error, "Could not write the new request of the completion of timer \(id): \(error.message)")
            completions.outcomeNotStored(id, now: clock.now())
            return
        }
        guard let written else { return }
        switch completions.recorded(written, now: clock.now()) {
        case .send(let record):
            send(record)
        case .readOutbox:
            lookAtOutbox()
        }
    }
}
