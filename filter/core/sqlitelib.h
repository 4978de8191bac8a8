/*
 * sqlitelib.h - libsqlite3, loaded on first use (dynlib.h) instead of
 * linked. Only an indexed -m mailbox (source/mdindex) and the queue's
 * state (queue/) need it; linking it relocated the
 * library before main() in every run: `lore-am --version` went from 4.92 M
 * to 6.38 M instructions with libsqlite3 and libresolv linked, and the
 * mail filter (--passthrough) starts once per incoming mail.
 *
 * The index (mdindex-int.h) and the queue include this instead of
 * <sqlite3.h> and call SQLite by its own names, each a call through
 * sqlitelib's pointers: mdindex_open() and queue_open() load the library
 * before their first sqlite3_open_v2(), and every other call takes the
 * connection or statement that made, so none runs without it.
 */
#ifndef LORE_SQLITELIB_H
#define LORE_SQLITELIB_H

#include "core/dynlib.h"

#include <sqlite3.h>

/* Every SQLite function the index and the queue call. */
#define SQLITELIB_FUNCTIONS(X, lib)                                            \
	X(lib, sqlite3_open_v2)                                                \
	X(lib, sqlite3_close_v2)                                               \
	X(lib, sqlite3_busy_timeout)                                           \
	X(lib, sqlite3_busy_handler)                                           \
	X(lib, sqlite3_db_config)                                              \
	X(lib, sqlite3_wal_hook)                                               \
	X(lib, sqlite3_exec)                                                   \
	X(lib, sqlite3_prepare_v2)                                             \
	X(lib, sqlite3_step)                                                   \
	X(lib, sqlite3_reset)                                                  \
	X(lib, sqlite3_finalize)                                               \
	X(lib, sqlite3_clear_bindings)                                         \
	X(lib, sqlite3_bind_int)                                               \
	X(lib, sqlite3_bind_int64)                                             \
	X(lib, sqlite3_bind_text)                                              \
	X(lib, sqlite3_column_int)                                             \
	X(lib, sqlite3_column_int64)                                           \
	X(lib, sqlite3_column_text)                                            \
	X(lib, sqlite3_last_insert_rowid)                                      \
	X(lib, sqlite3_changes)                                                \
	X(lib, sqlite3_errmsg)                                                 \
	X(lib, sqlite3_errstr)                                                 \
	X(lib, sqlite3_config)

struct sqlitelib {
	struct dynlib dl;
	SQLITELIB_FUNCTIONS(DYNLIB_POINTER, _)
};

extern struct sqlitelib sqlitelib;

#define SQLITELIB_CALL(f) DYNLIB_CALL(sqlitelib, f)
#define sqlite3_open_v2 SQLITELIB_CALL(sqlite3_open_v2)
#define sqlite3_close_v2 SQLITELIB_CALL(sqlite3_close_v2)
#define sqlite3_busy_timeout SQLITELIB_CALL(sqlite3_busy_timeout)
#define sqlite3_busy_handler SQLITELIB_CALL(sqlite3_busy_handler)
#define sqlite3_db_config SQLITELIB_CALL(sqlite3_db_config)
#define sqlite3_wal_hook SQLITELIB_CALL(sqlite3_wal_hook)
#define sqlite3_exec SQLITELIB_CALL(sqlite3_exec)
#define sqlite3_prepare_v2 SQLITELIB_CALL(sqlite3_prepare_v2)
#define sqlite3_step SQLITELIB_CALL(sqlite3_step)
#define sqlite3_reset SQLITELIB_CALL(sqlite3_reset)
#define sqlite3_finalize SQLITELIB_CALL(sqlite3_finalize)
#define sqlite3_clear_bindings SQLITELIB_CALL(sqlite3_clear_bindings)
#define sqlite3_bind_int SQLITELIB_CALL(sqlite3_bind_int)
#define sqlite3_bind_int64 SQLITELIB_CALL(sqlite3_bind_int64)
#define sqlite3_bind_text SQLITELIB_CALL(sqlite3_bind_text)
#define sqlite3_column_int SQLITELIB_CALL(sqlite3_column_int)
#define sqlite3_column_int64 SQLITELIB_CALL(sqlite3_column_int64)
#define sqlite3_column_text SQLITELIB_CALL(sqlite3_column_text)
#define sqlite3_last_insert_rowid SQLITELIB_CALL(sqlite3_last_insert_rowid)
#define sqlite3_changes SQLITELIB_CALL(sqlite3_changes)
#define sqlite3_errmsg SQLITELIB_CALL(sqlite3_errmsg)
#define sqlite3_errstr SQLITELIB_CALL(sqlite3_errstr)
#define sqlite3_config SQLITELIB_CALL(sqlite3_config)

#endif
