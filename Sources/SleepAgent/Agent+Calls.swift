import SleepTimerCore
import SleepTimerStore

/// The calls of the D-Bus API (and of the notifications' actions): each
/// checks its arguments, writes the store, and announces the change.
extension Agent {
    public func mirror(_ request: MirrorRequest) throws(ServiceError) {
        let timer: MirroredTimer
        do {
            timer = try mirrorRule.mirroredTimer(for: request, now: clock.now())
        } catch {
            throw ServiceError(error)
        }
        if let refusal = limits.refusal(of: timer, held: timers.values) {
            throw ServiceError(.tooManyTimers, refusal)
        }
        let outcome = try storing { () throws(StoreError) in try store.upsert(timer) }
        if let offset = request.platformClockOffset { completions.platformClockMeasured(offset, for: timer.scope.apiOrigin) }
        switch outcome {
        case .ignoredStale(let stored):
            log.log(.info, "Ignored a Mirror of timer \(timer.id) with revision \(timer.revision); revision \(stored) is stored.")
        case .inserted, .updated:
            log.log(.info, "Mirrored timer \(timer.id) (\(outcome == .inserted ? "new" : "updated"), revision \(timer.revision)).")
            backgroundLaunch.mirrored(timer.id, expiresAt: timer.tokenExpiresAt)
            announceChange(of: timer.id)
            applyLifecycle()
            publishProperties()
        }
    }

    public func remove(_ idText: String) throws(ServiceError) -> Bool {
        let id = try Self.timerID(idText, field: "timer_id")
        let removed = try storing { () throws(StoreError) in try store.remove(id) }
        if removed { announceRemoval([id], reason: .removed) }
        return removed
    }

    public func reconcile(apiOrigin: String, userID: String, familySubjectID: String, running: [String])
        throws(ServiceError) -> UInt32
    {
        let scope = TimerScope(
            apiOrigin: try Self.origin(apiOrigin), userID: try Self.identifier(UserID.self, userID, field: "user_id"),
            familySubjectID: try Self.identifier(FamilySubjectID.self, familySubjectID, field: "family_subject_id"))
        var keep: Set<TimerID> = []
        for text in running { keep.insert(try Self.timerID(text, field: "running_timer_ids")) }
        let removed = try storing { () throws(StoreError) in try store.reconcile(scope: scope, keeping: keep) }
        announceRemoval(removed, reason: .reconciled)
        return UInt32(clamping: removed.count)
    }

    public func purge(apiOrigin: String, userID: String, familySubjectID: String) throws(ServiceError) -> UInt32 {
        let origin = try Self.origin(apiOrigin)
        let user = try Self.identifier(UserID.self, userID, field: "user_id")
        let family = familySubjectID.isEmpty
            ? nil : try Self.identifier(FamilySubjectID.self, familySubjectID, field: "family_subject_id")
        let purged = try storing { () throws(StoreError) in
            try store.purge(apiOrigin: origin, userID: user, familySubjectID: family)
        }
        log.log(.info, "Purged \(purged.timers.count) timer(s) of a signed-out scope.")
        pendingCompletionsChanged(by: -purged.pendingCompletions)
        announceRemoval(purged.timers, reason: .purged)
        // Pending clicks of timers removed earlier may have gone without a
        // timer to announce.
        publishProperties()
        return UInt32(clamping: purged.timers.count)
    }

    /// Complete from the bus: the id read, then as the notification's and
    /// the panel's Complete; `completedAt` nil for now.
    public func complete(_ idText: String, completedAt: Instant?) throws(ServiceError) -> String {
        try complete(try Self.timerID(idText, field: "timer_id"), completedAt: completedAt)
        return "queued"
    }

    /// Records the completion durably before anything is sent, then
    /// answers: the completion machine decides the time recorded, and the
    /// record the store returns goes to it as it is, to be sent at once
    /// when a place is free.
    public func complete(_ id: TimerID, completedAt asked: Instant?) throws(ServiceError) {
        let now = clock.now()
        switch completions.clicked(timers[id], completedAt: asked, now: now) {
        case .refuse(let refusal):
            throw ServiceError(refusal)
        case .record(let stored, let completedAt, let sentAs):
            let record = try record(stored.timer.id, completedAt: completedAt, sentAs: sentAs, now: now)
            pendingCompletionsChanged(by: 1)
            announceChange(StoredTimer(timer: stored.timer, completionState: record.state, completionAttempts: record.attempts))
            publishProperties()
            switch completions.recorded(record, now: now) {
            case .send(let record):
                send(record)
            case .readOutbox:
                lookAtOutbox()
            }
        }
    }

    private func record(_ id: TimerID, completedAt: Instant, sentAs: Instant, now: Instant) throws(ServiceError)
        -> CompletionRecord
    {
        if crashPoints.isArmed(.beforeOutboxCommit) {
            store.beforeCommit = { [crashPoints, log] in crashPoints.reach(.beforeOutboxCommit, log: log) }
        }
        defer { store.beforeCommit = nil }
        let record = try storing { () throws(StoreError) in
            try store.recordCompletion(of: id, completedAt: completedAt, sentAs: sentAs, now: now)
        }
        log.log(.info, "Recorded the completion of timer \(id).")
        crashPoints.reach(.afterOutboxCommit, log: log)
        return record
    }

    /// Open from the bus: `caller` is the process that asked, whose opens
    /// are limited as the panel's and the notification's are.
    public func open(_ idText: String, caller: String) throws(ServiceError) {
        open(try openable(idText), activationToken: nil, caller: caller)
    }

    /// The timer an Open from the bus names, read and checked before its
    /// caller is known (the reply says at once what is wrong with it).
    public func openable(_ idText: String) throws(ServiceError) -> TimerID {
        let id = try Self.timerID(idText, field: "timer_id")
        guard timers[id] != nil else {
            throw ServiceError(.unknownTimer, "No Sleep timer with this id is mirrored on this desktop.")
        }
        return id
    }

    // MARK: Arguments

    /// A store call whose failure becomes the API's error.
    func storing<Result>(_ body: () throws(StoreError) -> Result) throws(ServiceError) -> Result {
        do {
            return try body()
        } catch {
            throw ServiceError(error)
        }
    }

    static func timerID(_ text: String, field: String) throws(ServiceError) -> TimerID {
        try identifier(TimerID.self, text, field: field)
    }

    static func identifier<Kind>(_ type: Identifier<Kind>.Type, _ text: String, field: String)
        throws(ServiceError) -> Identifier<Kind>
    {
        guard let id = Identifier<Kind>(text) else {
            throw ServiceError(.invalidArgument, "\(field) must be a UUID such as 123e4567-e89b-12d3-a456-426614174000.")
        }
        return id
    }

    static func origin(_ text: String) throws(ServiceError) -> APIOrigin {
        do {
            return try APIOrigin(parsing: text)
        } catch {
            throw ServiceError(.originNotAllowed, "api_origin \(error.explanation).")
        }
    }
}
