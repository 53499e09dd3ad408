#ifndef CDFLSQLITE_SHIM_H
#define CDFLSQLITE_SHIM_H

#include <sqlite3.h>

/* SQLITE_TRANSIENT is a macro that casts -1 to a function pointer; Swift
 * cannot import it, so the bind calls that need SQLite to copy the bytes
 * before returning are wrapped here. */
static inline int dfl_sqlite3_bind_text_transient(sqlite3_stmt *statement, int index,
                                                  const char *text, int length) {
    return sqlite3_bind_text(statement, index, text, length, SQLITE_TRANSIENT);
}

static inline int dfl_sqlite3_bind_blob_transient(sqlite3_stmt *statement, int index,
                                                  const void *bytes, int length) {
    return sqlite3_bind_blob(statement, index, bytes, length, SQLITE_TRANSIENT);
}

/* sqlite3_db_config is variadic; this is its (int, int *) form, used for the
 * boolean options such as SQLITE_DBCONFIG_DEFENSIVE. */
static inline int dfl_sqlite3_db_config_bool(sqlite3 *db, int option, int value, int *result) {
    return sqlite3_db_config(db, option, value, result);
}

#endif
