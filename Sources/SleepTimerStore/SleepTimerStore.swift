import CDFLSQLite
import SleepTimerCore

/// What a Mirror did to the store.
public enum UpsertOutcome: Sendable, Equatable {
    case inserted
    case updated
    /// The stored revision is newer; nothing changed.
    case ignoredStale(storedRevision: Int64)
}

/// What a purge took away.
public struct PurgeOutcome: Sendable, Equatable {
    /// The mirrored timers, each to be announced as removed.
    public let timers: [TimerID]
    /// How many pending completions went with them (including those of
    /// timers removed earlier): the outbox holds that many fewer.
    public let pendingCompletions: Int

    public init(timers: [TimerID], pendingCompletions: Int) {
        self.timers = timers
        self.pendingCompletions = pendingCompletions
    }
}

/// A completion that cannot succeed, as the store wrote it: what the agent
/// announces, with nothing read back.
public struct FailedCompletion: Sendable, Equatable {
    /// The entry in its final state, without its request body.
    public let record: CompletionRecord
    /// Its timer as it now stands, without its token; nil when the timer
    /// is no longer mirrored (it was removed while its click was pending).
    public let timer: StoredTimer?

    public init(record: CompletionRecord, timer: StoredTimer?) {
        self.record = record
        self.timer = timer
    }
}

/// The agent's durable local state in one SQLite file: mirrored timers
/// (display data and token), the completion outbox, and the map from timers
/// to desktop notifications.
///
/// Every change is one transaction in WAL mode with synchronous=FULL, so a
/// crash or power cut leaves either the state before a change or the state
/// after it, and a recorded click survives both. The class is not Sendable,
/// which the compiler holds: the agent keeps it on its main loop.
public final class SleepTimerStore {
    public let location: StoreLocation
    private let connection: SQLiteConnection
    private let log: any LogSink
    private let clock: any WallClock

    /// Origins and zone names already checked, by their stored text: rows
    /// are read often and hold few distinct values.
    private var originCache: [String: APIOrigin] = [:]
    private var zoneCache: [String: TimeZoneName] = [:]

    /// Called inside every write transaction just before COMMIT: a
    /// fault-injection seam that lets crash tests stop a process at the
    /// worst moment. nil in normal operation.
    public var beforeCommit: (() -> Void)?

    /// Opens the store at `location`, creating or migrating it. A damaged
    /// file is moved aside, a fresh one made, and the damaged copy
    /// overwritten and deleted.
    public init(location: StoreLocation, log: any LogSink, clock: any WallClock = SystemClock()) throws(StoreError) {
        self.location = location
        self.log = log
        self.clock = clock
        try location.prepareDirectory()
        // Whether or not a store opens, no damaged copy outlives this start.
        defer { Self.discardDamagedCopies(location, log: log) }
        connection = try Self.openOrQuarantine(location, log: log, clock: clock)
    }

    private enum OpenFailure: Error {
        /// The file is damaged or not a database: to be moved aside.
        case damaged(String)
        case store(StoreError)
    }

    private static func openOrQuarantine(_ location: StoreLocation, log: any LogSink, clock: any WallClock)
        throws(StoreError) -> SQLiteConnection
    {
        do {
            return try open(location)
        } catch {
            guard case .damaged(let reason) = error else {
                if case .store(let storeError) = error { throw storeError }
                preconditionFailure()
            }
            let movedTo = try location.quarantine(now: clock.now().millisecondsSince1970)
            log.log(
                .warning,
                "The timer store \(location.databasePath) was damaged (\(reason)); it was moved to \(movedTo) and a new, empty store was created. Timers are mirrored again as the app sends them."
            )
            discardDamagedCopies(location, log: log)
        }
        do {
            return try open(location)
        } catch {
            switch error {
            case .store(let storeError): throw storeError
            case .damaged(let reason):
                throw StoreError(.unsafeLocation, "A new timer store at \(location.databasePath) could not be made: \(reason)")
            }
        }
    }

    /// Runs SQLite calls while opening; damage is told apart from other
    /// failures, since only damage is cause to move the file aside.
    private static func opening<Result>(_ body: () throws(SQLiteError) -> Result) throws(OpenFailure) -> Result {
        do {
            return try body()
        } catch {
            throw error.meansCorruption ? .damaged(error.description) : .store(.database(error, while: "be opened"))
        }
    }

    private static func open(_ location: StoreLocation) throws(OpenFailure) -> SQLiteConnection {
        let condition: StoreLocation.FileCondition
        do {
            condition = try location.prepareDatabaseFile()
        } catch {
            throw .store(error)
        }
        if case .unusable(let reason) = condition { throw .damaged(reason) }
        let connection = try opening { () throws(SQLiteError) -> SQLiteConnection in
            try SQLiteConnection(
                path: location.databasePath,
                flags: SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE)
        }
        let (mode, check, version) = try opening { () throws(SQLiteError) -> (String?, String?, Int) in
            try connection.setBooleanOption(SQLITE_DBCONFIG_DEFENSIVE, true)
            try connection.setBooleanOption(SQLITE_DBCONFIG_TRUSTED_SCHEMA, false)
            try connection.execute("PRAGMA busy_timeout = 5000")
            // The store is small: a small page cache keeps the agent's memory flat.
            try connection.execute("PRAGMA cache_size = -256")
            let mode = try connection.scalarText("PRAGMA journal_mode = WAL")
            try connection.execute("PRAGMA synchronous = FULL")
            // A deleted token is zeroed where it lay, whatever this SQLite
            // build's default (Debian's has it on, others do not) ...
            let secure = try connection.scalarInteger("PRAGMA secure_delete = ON")
            // ... and the log is cut back to its live frames at every
            // restart, so stale frames never linger past them.
            try connection.execute("PRAGMA journal_size_limit = 0")
            guard secure == 1 else {
                throw SQLiteError(code: SQLITE_ERROR, message: "secure_delete could not be turned on")
            }
            let check = try connection.scalarText("PRAGMA quick_check(1)")
            return (mode, check, Int(try connection.scalarInteger("PRAGMA user_version") ?? 0))
        }
        guard check == "ok" else { throw .damaged("integrity check: \(check ?? "no answer")") }
        guard mode == "wal" else {
            throw .store(StoreError(
                .database(SQLiteError(code: SQLITE_ERROR, message: "journal_mode is \(mode ?? "unknown")")),
                "The timer store \(location.databasePath) cannot use write-ahead logging."))
        }
        guard version <= Schema.latestVersion else {
            throw .store(StoreError(
                .newerSchema(version: version),
                "The timer store \(location.databasePath) was written by a newer version of the agent (schema \(version); this one knows up to \(Schema.latestVersion)). It is left as it is; install the newer version again."
            ))
        }
        try opening { () throws(SQLiteError) in try Schema.migrate(connection, from: version) }
        return connection
    }

    /// Overwrites and deletes the damaged copies moved aside, by this start
    /// or an earlier one (earlier versions kept them). Nothing can read
    /// their timers back, the app mirrors them again, and the copies may
    /// hold action tokens, live for up to a day: a secret must not stay on
    /// disk once the agent has let go of it. Scrubbing the tokens out
    /// instead would need the damaged file's structure, which is what
    /// cannot be trusted. The log keeps the reason the store was damaged.
    private static func discardDamagedCopies(_ location: StoreLocation, log: any LogSink) {
        for path in location.damagedCopies() {
            do {
                if try location.overwriteAndDelete(path) {
                    log.log(
                        .notice,
                        "The damaged copy \(path) was overwritten and deleted: it may hold action tokens, which must not stay on disk."
                    )
                }
            } catch {
                log.log(.warning, error.description)
            }
        }
    }

    /// Folds the write-ahead log into the database file and closes it, at
    /// a clean shutdown; what is committed is already safe without this.
    public func close() {
        try? connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// Leaves no byte of a token that was just deleted or replaced in any
    /// file: secure_delete has zeroed it in the new version of its page,
    /// but the write-ahead log still holds the older frames that carry it,
    /// until they are copied into the database and the log is cut to
    /// nothing. A failure leaves the store correct, only not yet wiped: it
    /// is logged, and the next wipe or a clean shutdown finishes the job.
    private func wipeDeletedTokens(after action: String) {
        do {
            let statement = try connection.statement("PRAGMA wal_checkpoint(TRUNCATE)")
            defer { statement.reset() }
            // One row: busy (1 when the checkpoint could not finish), log
            // frames, checkpointed frames.
            if try statement.step(), statement.integer(0) == 0 { return }
            log.log(.warning, "The timer store's log could not be cleared after it \(action): another reader held it.")
        } catch {
            log.log(.warning, "The timer store's log could not be cleared after it \(action): \(error)")
        }
    }

    // MARK: Transactions

    /// Runs `body` in one write transaction: all of it is committed, or
    /// none of it. `action` says what the store was doing in any error.
    private func transaction<Value>(_ action: String, _ body: () throws(SQLiteError) -> Value) throws(StoreError) -> Value {
        try transaction(action, refusable: { () throws(SQLiteError) -> Result<Value, StoreError> in .success(try body()) })
    }

    /// A transaction whose body may refuse with an error of the store's own
    /// (no such timer, say): a refusal rolls back as a failure does.
    ///
    /// As in GRDB, a failure rolls back only when SQLite is still inside the
    /// transaction: a COMMIT that fails on a full disk or an I/O error has
    /// already rolled back, one that fails while busy has not.
    private func transaction<Value>(
        _ action: String, refusable body: () throws(SQLiteError) -> Result<Value, StoreError>
    ) throws(StoreError) -> Value {
        let result: Result<Value, StoreError>
        do {
            try connection.execute("BEGIN IMMEDIATE")
            result = try body()
            if case .success = result {
                beforeCommit?()
                try connection.execute("COMMIT")
            }
        } catch {
            if !connection.isAutocommit { try? connection.execute("ROLLBACK") }
            throw .database(error, while: action)
        }
        if case .failure = result { try? connection.execute("ROLLBACK") }
        return try result.get()
    }

    /// SQLite calls, their failures described as what the store was doing.
    private func sql<Result>(_ action: String, _ body: () throws(SQLiteError) -> Result) throws(StoreError) -> Result {
        do { return try body() } catch { throw .database(error, while: action) }
    }

    // MARK: Timers

    /// A mirror's own columns, in the order `decodeMirror` reads them.
    private static let mirrorColumns = """
        timer_id, api_origin, user_id, family_subject_id, baby_id, baby_name, started_at_ms, timezone, revision,
        action_token, token_expires_at_ms
        """

    /// A mirror's columns and its completion's state and attempts, as
    /// `decodeTimer` reads them.
    private static let timerColumns = """
        t.timer_id, t.api_origin, t.user_id, t.family_subject_id, t.baby_id, t.baby_name, t.started_at_ms,
        t.timezone, t.revision, t.action_token, t.token_expires_at_ms, c.state, c.attempts
        """

    /// A value parsed from stored text, or the one parsed from the same
    /// text before.
    private static func parsed<Value>(_ text: String, in cache: inout [String: Value], _ parse: (String) -> Value?)
        -> Value?
    {
        if let cached = cache[text] { return cached }
        guard let value = parse(text) else { return nil }
        if cache.count >= 64 { cache.removeAll() }
        cache[text] = value
        return value
    }

    private func origin(_ text: String) -> APIOrigin? {
        Self.parsed(text, in: &originCache) { try? APIOrigin(parsing: $0) }
    }

    private func zone(_ text: String) -> TimeZoneName? {
        Self.parsed(text, in: &zoneCache) { TimeZoneName($0) }
    }

    /// A mirror from its first columns (`mirrorColumns`).
    private func decodeMirror(_ row: SQLiteStatement) -> MirroredTimer? {
        guard let id = TimerID(row.text(0)), let origin = origin(row.text(1)),
            let user = UserID(row.text(2)), let family = FamilySubjectID(row.text(3)), let baby = BabyID(row.text(4)),
            let name = try? BabyName(validating: row.text(5)), let zone = zone(row.text(7))
        else {
            log.log(.warning, "A stored timer row could not be read and was skipped.")
            return nil
        }
        return MirroredTimer(
            id: id, scope: TimerScope(apiOrigin: origin, userID: user, familySubjectID: family), babyID: baby,
            babyName: name, startedAt: Instant(millisecondsSince1970: row.integer(6)), timeZone: zone,
            revision: row.integer(8), token: row.optionalText(9).map { ActionToken(unvalidated: $0) },
            tokenExpiresAt: Instant(millisecondsSince1970: row.integer(10)))
    }

    private func decodeTimer(_ row: SQLiteStatement) -> StoredTimer? {
        guard let timer = decodeMirror(row) else { return nil }
        return StoredTimer(
            timer: timer, completionState: row.optionalText(11).flatMap(CompletionState.init(rawValue:)),
            completionAttempts: Int(row.integer(12)))
    }

    public func timer(_ id: TimerID) throws(StoreError) -> StoredTimer? {
        try sql("read a timer") { () throws(SQLiteError) -> StoredTimer? in try readTimer(id) }
    }

    private func readTimer(_ id: TimerID) throws(SQLiteError) -> StoredTimer? {
        let statement = try connection.statement(
            "SELECT \(Self.timerColumns) FROM timers t LEFT JOIN completions c USING (timer_id) WHERE t.timer_id = ?")
        try statement.bind(.text(id.string))
        defer { statement.reset() }
        return try statement.step() ? decodeTimer(statement) : nil
    }

    /// Every mirrored timer, oldest start first.
    public func timers() throws(StoreError) -> [StoredTimer] {
        try sql("list timers") { () throws(SQLiteError) -> [StoredTimer] in
            let statement = try connection.statement(
                "SELECT \(Self.timerColumns) FROM timers t LEFT JOIN completions c USING (timer_id) ORDER BY t.started_at_ms, t.timer_id")
            defer { statement.reset() }
            var result: [StoredTimer] = []
            while try statement.step() {
                if let timer = decodeTimer(statement) { result.append(timer) }
            }
            return result
        }
    }

    public func timerCount() throws(StoreError) -> Int {
        try sql("count timers") { () throws(SQLiteError) -> Int in
            Int(try connection.scalarInteger("SELECT count(*) FROM timers") ?? 0)
        }
    }

    /// Inserts or updates a mirror. A lower revision than the stored one is
    /// stale and ignored. A fresh mirror of a timer whose completion failed
    /// replaces that failed completion: the app has just said the timer
    /// runs, with a token. A token replaced by another is wiped from the
    /// files, as a deleted one is.
    public func upsert(_ timer: MirroredTimer) throws(StoreError) -> UpsertOutcome {
        var replacedToken = false
        let outcome = try transaction("save a timer") { () throws(SQLiteError) -> UpsertOutcome in
            let existing = try connection.statement("SELECT revision, action_token FROM timers WHERE timer_id = ?")
            try existing.bind(.text(timer.id.string))
            let found = try existing.step()
            let storedRevision = found ? existing.integer(0) : nil
            let storedToken = found ? existing.optionalText(1) : nil
            existing.reset()
            if let storedRevision, timer.revision < storedRevision { return .ignoredStale(storedRevision: storedRevision) }
            let token: String? = timer.token?.withRevealedValue { $0 }
            replacedToken = storedToken != nil && storedToken != token
            try connection.statement("""
                INSERT INTO timers (timer_id, api_origin, user_id, family_subject_id, baby_id, baby_name,
                    started_at_ms, timezone, revision, action_token, token_expires_at_ms)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (timer_id) DO UPDATE SET api_origin = excluded.api_origin, user_id = excluded.user_id,
                    family_subject_id = excluded.family_subject_id, baby_id = excluded.baby_id,
                    baby_name = excluded.baby_name, started_at_ms = excluded.started_at_ms,
                    timezone = excluded.timezone, revision = excluded.revision,
                    action_token = excluded.action_token, token_expires_at_ms = excluded.token_expires_at_ms
                """).bind(
                    .text(timer.id.string), .text(timer.scope.apiOrigin.description), .text(timer.scope.userID.string),
                    .text(timer.scope.familySubjectID.string), .text(timer.babyID.string), .text(timer.babyName.text),
                    .integer(timer.startedAt.millisecondsSince1970), .text(timer.timeZone.identifier),
                    .integer(timer.revision), token.sqlite, .integer(timer.tokenExpiresAt.millisecondsSince1970)
                ).run()
            try connection.statement("DELETE FROM completions WHERE timer_id = ? AND state != 'pending'")
                .bind(.text(timer.id.string)).run()
            return storedRevision == nil ? .inserted : .updated
        }
        if replacedToken { wipeDeletedTokens(after: "replaced a token") }
        return outcome
    }

    /// What becomes of a pending completion when its timer's rows go.
    private enum PendingCompletion {
        /// Kept and still sent: it records a click.
        case kept
        /// Deleted too: the platform has it, or the scope is purged.
        case deleted
    }

    /// Deletes timers by id: the mirror, its completion (a pending one as
    /// `pending` says), and its notification row where it records a
    /// dismissal only. The one place the three tables are cleared. A row
    /// of a notification that may still be on screen outlives its timer:
    /// the agent deletes it (`removeNotification`) once the notification
    /// is closed, so that an agent killed before that withdraws it at its
    /// next start; the row holds no token and no name. Returns how many
    /// pending completions it deleted, as the deletes themselves report
    /// them.
    @discardableResult
    private func deleteTimers(_ ids: some Sequence<TimerID>, pending: PendingCompletion = .kept) throws(SQLiteError) -> Int {
        var deletedPending = 0
        for id in ids {
            try connection.statement("DELETE FROM timers WHERE timer_id = ?").bind(.text(id.string)).run()
            try connection.statement("DELETE FROM notifications WHERE timer_id = ? AND dismissed_in_state IS NOT NULL")
                .bind(.text(id.string)).run()
            deletedPending += try connection.statement(
                "DELETE FROM completions WHERE timer_id = ?1 AND (?2 OR state != 'pending') RETURNING state = 'pending'"
            ).bind(.text(id.string), .integer(pending == .deleted ? 1 : 0)).rows { $0.integer(0) != 0 }.filter { $0 }.count
        }
        return deletedPending
    }

    private func timerIDs(_ query: String, _ values: SQLiteValue...) throws(SQLiteError) -> [TimerID] {
        let statement = try connection.statement(query)
        try statement.bind(values)
        defer { statement.reset() }
        var ids: [TimerID] = []
        while try statement.step() {
            if let id = TimerID(statement.text(0)) { ids.append(id) }
        }
        return ids
    }

    /// Removes one mirror; false when there was none.
    public func remove(_ id: TimerID) throws(StoreError) -> Bool {
        let removed = try transaction("remove a timer") { () throws(SQLiteError) -> Bool in
            let found = try timerIDs("SELECT timer_id FROM timers WHERE timer_id = ?", .text(id.string))
            try deleteTimers(found)
            return !found.isEmpty
        }
        if removed { wipeDeletedTokens(after: "removed a timer") }
        return removed
    }

    /// Removes the mirrors with these ids (those that exist), as Remove
    /// does; returns the ids that were there.
    public func remove(_ ids: [TimerID]) throws(StoreError) -> [TimerID] {
        guard !ids.isEmpty else { return [] }
        let removed = try transaction("remove timers") { () throws(SQLiteError) -> [TimerID] in
            var found: [TimerID] = []
            for id in ids {
                found += try timerIDs("SELECT timer_id FROM timers WHERE timer_id = ?", .text(id.string))
            }
            try deleteTimers(found)
            return found
        }
        if !removed.isEmpty { wipeDeletedTokens(after: "removed timers") }
        return removed
    }

    /// Drops the mirrors of `scope` that are not in `running`: timers
    /// stopped on another device or whose baby was deleted.
    public func reconcile(scope: TimerScope, keeping running: Set<TimerID>) throws(StoreError) -> [TimerID] {
        let removed = try transaction("reconcile timers") { () throws(SQLiteError) -> [TimerID] in
            let stale = try timerIDs(
                "SELECT timer_id FROM timers WHERE api_origin = ? AND user_id = ? AND family_subject_id = ? ORDER BY timer_id",
                .text(scope.apiOrigin.description), .text(scope.userID.string), .text(scope.familySubjectID.string)
            ).filter { !running.contains($0) }
            try deleteTimers(stale)
            return stale
        }
        if !removed.isEmpty { wipeDeletedTokens(after: "reconciled timers") }
        return removed
    }

    /// Sign-out or account deletion: every row of the scope goes, timers,
    /// tokens, notifications and completions (pending ones included, since
    /// they hold a token), in one transaction. A nil family means every
    /// family of the user.
    public func purge(apiOrigin: APIOrigin, userID: UserID, familySubjectID: FamilySubjectID?) throws(StoreError)
        -> PurgeOutcome
    {
        defer { wipeDeletedTokens(after: "purged a scope") }
        return try transaction("purge a scope") { () throws(SQLiteError) -> PurgeOutcome in
            let family = familySubjectID?.string ?? ""
            let condition = "api_origin = ?1 AND user_id = ?2 AND (?3 = '' OR family_subject_id = ?3)"
            let origin = SQLiteValue.text(apiOrigin.description)
            let user = SQLiteValue.text(userID.string)
            let ids = try timerIDs(
                "SELECT timer_id FROM timers WHERE \(condition) ORDER BY timer_id", origin, user, .text(family))
            let orphans = try timerIDs(
                "SELECT timer_id FROM completions WHERE \(condition)", origin, user, .text(family))
            let pending = try deleteTimers(Set(ids + orphans), pending: .deleted)
            return PurgeOutcome(timers: ids, pendingCompletions: pending)
        }
    }

    // MARK: Completion outbox

    private static let completionColumns = """
        timer_id, api_origin, user_id, family_subject_id, completed_at_ms, request_body, token_expires_at_ms,
        attempts, next_attempt_at_ms, last_error, state, retimed
        """

    /// The pending entries due by a time, in the order they are sent; the
    /// index completions_due_in_order answers it without sorting.
    static let dueCompletionsQuery = """
        SELECT \(completionColumns) FROM completions
        WHERE state = 'pending' AND next_attempt_at_ms <= ? ORDER BY next_attempt_at_ms, timer_id LIMIT ?
        """

    private func decodeCompletion(_ row: SQLiteStatement) -> CompletionRecord? {
        guard let id = TimerID(row.text(0)), let origin = origin(row.text(1)),
            let user = UserID(row.text(2)), let family = FamilySubjectID(row.text(3)),
            let state = CompletionState(rawValue: row.text(10))
        else {
            log.log(.warning, "A stored completion row could not be read and was skipped.")
            return nil
        }
        return CompletionRecord(
            timerID: id, scope: TimerScope(apiOrigin: origin, userID: user, familySubjectID: family),
            completedAt: Instant(millisecondsSince1970: row.integer(4)),
            requestBody: row.blob(5).map(CompletionRequestBody.init(bytes:)),
            tokenExpiresAt: Instant(millisecondsSince1970: row.integer(6)), attempts: Int(row.integer(7)),
            nextAttemptAt: Instant(millisecondsSince1970: row.integer(8)), lastError: row.optionalText(9), state: state,
            retimed: row.integer(11) != 0)
    }

    /// Records a click on Complete, durably, before anything is sent: the
    /// completion time is the click's (`completedAt`, by this desktop's
    /// clock), and the request body, carrying `sentAs` (the same moment in
    /// the platform's clock), is built now and never again.
    public func recordCompletion(of id: TimerID, completedAt: Instant, sentAs: Instant? = nil, now: Instant)
        throws(StoreError) -> CompletionRecord
    {
        try transaction("record a completion", refusable: { () throws(SQLiteError) -> Result<CompletionRecord, StoreError> in
            guard let stored = try readTimer(id) else {
                return .failure(StoreError(.unknownTimer, "No Sleep timer with id \(id) is mirrored on this desktop."))
            }
            let token: ActionToken
            switch stored.completion(at: now) {
            case .completable(let valid):
                token = valid
            case .alreadyRecorded:
                return .failure(StoreError(.cannotComplete, "This Sleep timer is already being saved or has to be finished in the app."))
            case .noValidToken:
                return .failure(StoreError(
                    .cannotComplete, "This Sleep timer can no longer be completed from the desktop; finish it in the app."))
            }
            let record = CompletionRecord(
                timerID: id, scope: stored.timer.scope, completedAt: completedAt,
                requestBody: NativeCompletion.requestBody(token: token, completedAt: sentAs ?? completedAt),
                tokenExpiresAt: stored.timer.tokenExpiresAt, attempts: 0, nextAttemptAt: now, lastError: nil,
                state: .pending)
            try insert(record)
            return .success(record)
        })
    }

    /// The platform refused the completion's time: the entry gets a body
    /// with the corrected time, marked so that it is corrected only once,
    /// and is due at once. Returns the entry as written, to be sent as it
    /// is; nil when it is no longer pending (or was corrected before).
    public func retimeCompletion(of id: TimerID, body: CompletionRequestBody, now: Instant)
        throws(StoreError) -> CompletionRecord?
    {
        try replaceBody(of: id, body, now: now, condition: "AND retimed = 0", marking: ", retimed = 1")
    }

    /// The platform refused the completion's token as revoked: the entry
    /// gets a body with the timer's newer token, and is due at once.
    /// Returns the entry as written, to be sent as it is; nil when it is no
    /// longer pending.
    public func retokenCompletion(of id: TimerID, body: CompletionRequestBody, now: Instant)
        throws(StoreError) -> CompletionRecord?
    {
        try replaceBody(of: id, body, now: now, condition: "", marking: "")
    }

    private func replaceBody(of id: TimerID, _ body: CompletionRequestBody, now: Instant, condition: String, marking: String)
        throws(StoreError) -> CompletionRecord?
    {
        try transaction("send a completion anew") { () throws(SQLiteError) -> CompletionRecord? in
            try connection.statement("""
                UPDATE completions SET request_body = ?, next_attempt_at_ms = ?\(marking)
                WHERE timer_id = ? AND state = 'pending' \(condition) RETURNING \(Self.completionColumns)
                """).bind(.blob(body.withRevealedBytes { $0 }), .integer(now.millisecondsSince1970), .text(id.string))
                .rows(decodeCompletion).first ?? nil
        }
    }

    private func insert(_ record: CompletionRecord) throws(SQLiteError) {
        let scope = record.scope
        try connection.statement("""
            INSERT INTO completions (timer_id, api_origin, user_id, family_subject_id, completed_at_ms,
                request_body, token_expires_at_ms, attempts, next_attempt_at_ms, last_error, state)
            VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, NULL, 'pending')
            """).bind(
                .text(record.timerID.string), .text(scope.apiOrigin.description), .text(scope.userID.string),
                .text(scope.familySubjectID.string), .integer(record.completedAt.millisecondsSince1970),
                .blob(record.requestBody!.withRevealedBytes { $0 }), .integer(record.tokenExpiresAt.millisecondsSince1970),
                .integer(record.nextAttemptAt.millisecondsSince1970)
            ).run()
    }

    public func completion(of id: TimerID) throws(StoreError) -> CompletionRecord? {
        try sql("read a completion") { () throws(SQLiteError) -> CompletionRecord? in
            let statement = try connection.statement("SELECT \(Self.completionColumns) FROM completions WHERE timer_id = ?")
            try statement.bind(.text(id.string))
            defer { statement.reset() }
            return try statement.step() ? decodeCompletion(statement) : nil
        }
    }

    /// Pending completions due at `now`, the earliest first, at most
    /// `limit` of them.
    public func dueCompletions(at now: Instant, limit: Int = Int(Int32.max)) throws(StoreError) -> [CompletionRecord] {
        try sql("list due completions") { () throws(SQLiteError) -> [CompletionRecord] in
            let statement = try connection.statement(Self.dueCompletionsQuery)
            try statement.bind(.integer(now.millisecondsSince1970), .integer(Int64(limit)))
            defer { statement.reset() }
            var result: [CompletionRecord] = []
            while try statement.step() {
                if let record = decodeCompletion(statement) { result.append(record) }
            }
            return result
        }
    }

    public func pendingCompletionCount() throws(StoreError) -> Int {
        try sql("count completions") { () throws(SQLiteError) -> Int in
            Int(try connection.scalarInteger("SELECT count(*) FROM completions WHERE state = 'pending'") ?? 0)
        }
    }

    /// A failed attempt that may pass: count it and set the next try.
    /// Returns the entry as the update left it; nil when it is no longer
    /// pending (settled or purged meanwhile), and nothing changed.
    public func scheduleRetry(of id: TimerID, attempts: Int, nextAttemptAt: Instant, lastError: String)
        throws(StoreError) -> CompletionRecord?
    {
        try transaction("schedule a retry") { () throws(SQLiteError) -> CompletionRecord? in
            try connection.statement("""
                UPDATE completions SET attempts = ?, next_attempt_at_ms = ?, last_error = ?
                WHERE timer_id = ? AND state = 'pending' RETURNING \(Self.completionColumns)
                """).bind(.integer(Int64(attempts)), .integer(nextAttemptAt.millisecondsSince1970), .text(lastError),
                          .text(id.string)).rows(decodeCompletion).first ?? nil
        }
    }

    /// Makes every pending completion due at `now`: the network is back,
    /// so waiting out the backoff would only delay them.
    public func bringPendingCompletionsForward(to now: Instant) throws(StoreError) {
        try transaction("bring completions forward") { () throws(SQLiteError) in
            try connection.statement(
                "UPDATE completions SET next_attempt_at_ms = ?1 WHERE state = 'pending' AND next_attempt_at_ms > ?1"
            ).bind(.integer(now.millisecondsSince1970)).run()
        }
    }

    /// The platform has the completion (created now, or earlier elsewhere):
    /// the timer, its token, its notification row and the outbox entry all
    /// go in one transaction. True when a pending entry left the outbox;
    /// false when none was there (purged meanwhile).
    public func finishCompletion(of id: TimerID) throws(StoreError) -> Bool {
        let finished = try transaction("finish a completion") { () throws(SQLiteError) -> Bool in
            try deleteTimers([id], pending: .deleted) > 0
        }
        wipeDeletedTokens(after: "finished a completion")
        return finished
    }

    /// The pending completion cannot succeed: keep it visible in `state`,
    /// and drop the request body and the token, which can do nothing more.
    /// Returns the entry and its timer as the updates left them; nil when
    /// no entry was pending (purged meanwhile), and nothing is written: a
    /// settled entry's timer has no token left to drop.
    public func failCompletion(of id: TimerID, state: CompletionState, lastError: String)
        throws(StoreError) -> FailedCompletion?
    {
        precondition(state != .pending)
        let failed = try transaction("record a failed completion") { () throws(SQLiteError) -> FailedCompletion? in
            // Each row the update wrote; nil for one that could not be read.
            let written = try connection.statement("""
                UPDATE completions SET state = ?, request_body = NULL, last_error = ?
                WHERE timer_id = ? AND state = 'pending' RETURNING \(Self.completionColumns)
                """).bind(.text(state.rawValue), .text(lastError), .text(id.string)).rows(decodeCompletion)
            guard let entry = written.first else { return nil }
            let timer = try connection.statement(
                "UPDATE timers SET action_token = NULL WHERE timer_id = ? RETURNING \(Self.mirrorColumns)"
            ).bind(.text(id.string)).rows(decodeMirror).first ?? nil
            // The agent fails only entries it read from the outbox, so the
            // row changed here reads back too.
            guard let record = entry else { return nil }
            return FailedCompletion(
                record: record,
                timer: timer.map { StoredTimer(timer: $0, completionState: record.state, completionAttempts: record.attempts) })
        }
        wipeDeletedTokens(after: "recorded a failed completion")
        return failed
    }

    // MARK: Notifications

    public func notification(for id: TimerID) throws(StoreError) -> NotificationRecord? {
        try sql("read a notification") { () throws(SQLiteError) -> NotificationRecord? in
            let statement = try connection.statement(
                "SELECT notification_id, dismissed_in_state, server_owner FROM notifications WHERE timer_id = ?")
            try statement.bind(.text(id.string))
            defer { statement.reset() }
            guard try statement.step() else { return nil }
            return NotificationRecord(
                notificationID: UInt32(truncatingIfNeeded: statement.integer(0)), dismissedInState: statement.optionalText(1),
                serverOwner: statement.optionalText(2))
        }
    }

    /// Every timer's notification record, as the agent loads them at start.
    public func notifications() throws(StoreError) -> [TimerID: NotificationRecord] {
        try sql("read the notifications") { () throws(SQLiteError) -> [TimerID: NotificationRecord] in
            let statement = try connection.statement(
                "SELECT timer_id, notification_id, dismissed_in_state, server_owner FROM notifications")
            defer { statement.reset() }
            var records: [TimerID: NotificationRecord] = [:]
            while try statement.step() {
                guard let id = TimerID(statement.text(0)) else { continue }
                records[id] = NotificationRecord(
                    notificationID: UInt32(truncatingIfNeeded: statement.integer(1)),
                    dismissedInState: statement.optionalText(2), serverOwner: statement.optionalText(3))
            }
            return records
        }
    }

    /// Records the notification shown for a timer and whether (in which of
    /// its states) the user dismissed it.
    public func setNotification(for id: TimerID, _ record: NotificationRecord) throws(StoreError) {
        try transaction("record a notification") { () throws(SQLiteError) in
            try connection.statement("""
                INSERT INTO notifications (timer_id, notification_id, dismissed_in_state, server_owner) VALUES (?, ?, ?, ?)
                ON CONFLICT (timer_id) DO UPDATE SET notification_id = excluded.notification_id,
                    dismissed_in_state = excluded.dismissed_in_state, server_owner = excluded.server_owner
                """).bind(.text(id.string), .integer(Int64(record.notificationID)), record.dismissedInState.sqlite,
                          record.serverOwner.sqlite).run()
        }
    }

    public func removeNotification(for id: TimerID) throws(StoreError) {
        try transaction("forget a notification") { () throws(SQLiteError) in
            try connection.statement("DELETE FROM notifications WHERE timer_id = ?").bind(.text(id.string)).run()
        }
    }
}

/// One connection, used on the loop's thread only: the compiler keeps it there (as SwiftPM does for its SQLite wrapper).
@available(*, unavailable)
extension SleepTimerStore: Sendable {}
