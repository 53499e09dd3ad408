/* The floor for a durable write: one row inserted and committed in WAL mode
 * with synchronous=FULL, as the agent's store does it. Prints one line per
 * commit: its duration in nanoseconds. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: sqlite-commit DATABASE COUNT\n");
        return 64;
    }
    sqlite3 *database;
    if (sqlite3_open(argv[1], &database) != SQLITE_OK) return 1;
    sqlite3_exec(database, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
                           "CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, body BLOB)", NULL, NULL, NULL);
    sqlite3_stmt *insert;
    sqlite3_prepare_v2(database, "INSERT INTO t (body) VALUES (?)", -1, &insert, NULL);
    char body[200] = {0};
    int count = atoi(argv[2]);
    for (int i = 0; i < count; i++) {
        long long start = now_ns();
        sqlite3_exec(database, "BEGIN IMMEDIATE", NULL, NULL, NULL);
        sqlite3_bind_blob(insert, 1, body, sizeof body, SQLITE_STATIC);
        sqlite3_step(insert);
        sqlite3_reset(insert);
        sqlite3_exec(database, "COMMIT", NULL, NULL, NULL);
        printf("%lld\n", now_ns() - start);
    }
    sqlite3_finalize(insert);
    sqlite3_close(database);
    return 0;
}
