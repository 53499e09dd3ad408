/// The store's schema as a list of forward migrations; `PRAGMA user_version`
/// records how many have run. A migration is never edited once released:
/// a change is a new migration at the end.
enum Schema {
    static let migrations: [String] = [
        // 1: mirrored timers, display data and the token.
        """
        CREATE TABLE timers (
            timer_id TEXT PRIMARY KEY NOT NULL,
            api_origin TEXT NOT NULL,
            user_id TEXT NOT NULL,
            family_subject_id TEXT NOT NULL,
            baby_id TEXT NOT NULL,
            baby_name TEXT NOT NULL,
            started_at_ms INTEGER NOT NULL,
            timezone TEXT NOT NULL,
            revision INTEGER NOT NULL,
            action_token TEXT,
            token_expires_at_ms INTEGER NOT NULL
        ) STRICT;
        CREATE INDEX timers_by_scope ON timers (api_origin, user_id, family_subject_id);
        """,
        // 2: the completion outbox. It keeps its own copy of the scope so
        // that a recorded click is sent even if the mirror changes.
        """
        CREATE TABLE completions (
            timer_id TEXT PRIMARY KEY NOT NULL,
            api_origin TEXT NOT NULL,
            user_id TEXT NOT NULL,
            family_subject_id TEXT NOT NULL,
            completed_at_ms INTEGER NOT NULL,
            request_body BLOB,
            token_expires_at_ms INTEGER NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            next_attempt_at_ms INTEGER NOT NULL,
            last_error TEXT,
            state TEXT NOT NULL CHECK (state IN ('pending', 'failed', 'needs-app')),
            CHECK ((state = 'pending') = (request_body IS NOT NULL))
        ) STRICT;
        CREATE INDEX completions_due ON completions (state, next_attempt_at_ms);
        """,
        // 3: which desktop notification shows which timer, and whether the
        // user dismissed it (and in which state of the timer).
        """
        CREATE TABLE notifications (
            timer_id TEXT PRIMARY KEY NOT NULL,
            notification_id INTEGER NOT NULL,
            dismissed_in_state TEXT
        ) STRICT;
        """,
        // 4: the notification server that holds each id (its unique bus
        // name), so that a restarted agent replaces its own notifications
        // on the same server and never reuses an id on another.
        """
        ALTER TABLE notifications ADD COLUMN server_owner TEXT;
        """,
        // 5: the outbox index in the order the sender reads it (due time,
        // then timer id), so that finding the next few entries reads those
        // entries only instead of sorting the whole outbox on every sweep.
        """
        DROP INDEX completions_due;
        CREATE INDEX completions_due_in_order ON completions (state, next_attempt_at_ms, timer_id);
        """,
        // 6: whether a completion's time was corrected once after the
        // platform refused it (the clocks disagreed): a second refusal is final.
        """
        ALTER TABLE completions ADD COLUMN retimed INTEGER NOT NULL DEFAULT 0;
        """,
    ]

    static var latestVersion: Int { migrations.count }

    /// Runs the migrations after `current` up to `target`, each in its own
    /// transaction together with the new version number, so that a crash
    /// leaves the file at one version or the next.
    static func migrate(_ connection: SQLiteConnection, from current: Int, to target: Int = latestVersion)
        throws(SQLiteError)
    {
        guard current < target else { return }
        for version in (current + 1)...target {
            try connection.execute("BEGIN IMMEDIATE")
            do {
                try connection.execute(migrations[version - 1])
                try connection.execute("PRAGMA user_version = \(version)")
                try connection.execute("COMMIT")
            } catch {
                try? connection.execute("ROLLBACK")
                throw error
            }
        }
    }
}
