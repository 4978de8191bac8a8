/*
 * sqlitelib.c - libsqlite3, loaded with GModule on its first use instead of
 * being linked. Only an indexed -m mailbox needs it (mdindex.c); linking it
 * relocated the library before main() in every run: `lore-am --version` went
 * from 4.92 M to 6.38 M instructions with libsqlite3 and libresolv linked,
 * and the mail filter (--passthrough) starts once per incoming mail.
 *
 * The functions mdindex.c, mdupdate.c and mdwalk.c call are defined here
 * under SQLite's own names (the API is <sqlite3.h>), as curllib.c does for
 * libcurl. Only sqlite3_open_v2() loads the library: every other call takes
 * the connection or statement it made, so it runs after a successful load.
 * When the library cannot be loaded, sqlite3_open_v2() fails with
 * SQLITE_CANTOPEN and no connection, and sqlite3_errstr() says why.
 */
#include "core/util.h"

#include <sqlite3.h>

/* libsqlite3's soname has been libsqlite3.so.0 since SQLite 3.0 */
#define SQLITELIB_NAME "libsqlite3.so.0"

static struct {
	int (*open_v2)(const char *, sqlite3 **, int, const char *);
	int (*close_v2)(sqlite3 *);
	int (*busy_timeout)(sqlite3 *, int);
	int (*exec)(sqlite3 *, const char *,
		    int (*)(void *, int, char **, char **), void *, char **);
	int (*prepare_v2)(sqlite3 *, const char *, int, sqlite3_stmt **,
			  const char **);
	int (*step)(sqlite3_stmt *);
	int (*reset)(sqlite3_stmt *);
	int (*finalize)(sqlite3_stmt *);
	int (*clear_bindings)(sqlite3_stmt *);
	int (*bind_int)(sqlite3_stmt *, int, int);
	int (*bind_int64)(sqlite3_stmt *, int, sqlite3_int64);
	int (*bind_text)(sqlite3_stmt *, int, const char *, int,
			 void (*)(void *));
	int (*column_int)(sqlite3_stmt *, int);
	sqlite3_int64 (*column_int64)(sqlite3_stmt *, int);
	const unsigned char *(*column_text)(sqlite3_stmt *, int);
	sqlite3_int64 (*last_insert_rowid)(sqlite3 *);
	int (*errcode)(sqlite3 *);
	const char *(*errmsg)(sqlite3 *);
	const char *(*errstr)(int);
} lib;

static const struct lore_sym syms[] = {
    {"sqlite3_open_v2", (gpointer *)&lib.open_v2},
    {"sqlite3_close_v2", (gpointer *)&lib.close_v2},
    {"sqlite3_busy_timeout", (gpointer *)&lib.busy_timeout},
    {"sqlite3_exec", (gpointer *)&lib.exec},
    {"sqlite3_prepare_v2", (gpointer *)&lib.prepare_v2},
    {"sqlite3_step", (gpointer *)&lib.step},
    {"sqlite3_reset", (gpointer *)&lib.reset},
    {"sqlite3_finalize", (gpointer *)&lib.finalize},
    {"sqlite3_clear_bindings", (gpointer *)&lib.clear_bindings},
    {"sqlite3_bind_int", (gpointer *)&lib.bind_int},
    {"sqlite3_bind_int64", (gpointer *)&lib.bind_int64},
    {"sqlite3_bind_text", (gpointer *)&lib.bind_text},
    {"sqlite3_column_int", (gpointer *)&lib.column_int},
    {"sqlite3_column_int64", (gpointer *)&lib.column_int64},
    {"sqlite3_column_text", (gpointer *)&lib.column_text},
    {"sqlite3_last_insert_rowid", (gpointer *)&lib.last_insert_rowid},
    {"sqlite3_errcode", (gpointer *)&lib.errcode},
    {"sqlite3_errmsg", (gpointer *)&lib.errmsg},
    {"sqlite3_errstr", (gpointer *)&lib.errstr},
};

static struct lore_lib libsqlite = {
    .soname = SQLITELIB_NAME, .syms = syms, .n = G_N_ELEMENTS(syms)};

static char *failed; /* "cannot load ...": kept until the process ends */

int
sqlite3_open_v2(const char *file, sqlite3 **db, int flags, const char *vfs)
{
	if (lore_lib_need(&libsqlite))
		return lib.open_v2(file, db, flags, vfs);
	if (!failed)
		failed = g_strdup_printf("cannot load %s: %s", SQLITELIB_NAME,
					 libsqlite.failed);
	*db = NULL;
	return SQLITE_CANTOPEN;
}

/* Also called on the NULL connection a failed open leaves. */
int
sqlite3_close_v2(sqlite3 *db)
{
	return db ? lib.close_v2(db) : SQLITE_OK;
}

const char *
sqlite3_errstr(int rc)
{
	if (failed && rc == SQLITE_CANTOPEN)
		return failed;
	return lib.errstr ? lib.errstr(rc) : "SQLite error";
}

int
sqlite3_busy_timeout(sqlite3 *db, int ms)
{
	return lib.busy_timeout(db, ms);
}

int
sqlite3_exec(sqlite3 *db, const char *sql,
	     int (*cb)(void *, int, char **, char **), void *data, char **err)
{
	return lib.exec(db, sql, cb, data, err);
}

int
sqlite3_prepare_v2(sqlite3 *db, const char *sql, int n, sqlite3_stmt **stmt,
		   const char **tail)
{
	return lib.prepare_v2(db, sql, n, stmt, tail);
}

int
sqlite3_step(sqlite3_stmt *s)
{
	return lib.step(s);
}

int
sqlite3_reset(sqlite3_stmt *s)
{
	return lib.reset(s);
}

/* sqlite3_finalize(NULL) is a no-op in SQLite too. */
int
sqlite3_finalize(sqlite3_stmt *s)
{
	return s ? lib.finalize(s) : SQLITE_OK;
}

int
sqlite3_clear_bindings(sqlite3_stmt *s)
{
	return lib.clear_bindings(s);
}

int
sqlite3_bind_int(sqlite3_stmt *s, int i, int v)
{
	return lib.bind_int(s, i, v);
}

int
sqlite3_bind_int64(sqlite3_stmt *s, int i, sqlite3_int64 v)
{
	return lib.bind_int64(s, i, v);
}

int
sqlite3_bind_text(sqlite3_stmt *s, int i, const char *v, int n,
		  void (*destroy)(void *))
{
	return lib.bind_text(s, i, v, n, destroy);
}

int
sqlite3_column_int(sqlite3_stmt *s, int i)
{
	return lib.column_int(s, i);
}

sqlite3_int64
sqlite3_column_int64(sqlite3_stmt *s, int i)
{
	return lib.column_int64(s, i);
}

const unsigned char *
sqlite3_column_text(sqlite3_stmt *s, int i)
{
	return lib.column_text(s, i);
}

sqlite3_int64
sqlite3_last_insert_rowid(sqlite3 *db)
{
	return lib.last_insert_rowid(db);
}

int
sqlite3_errcode(sqlite3 *db)
{
	return lib.errcode(db);
}

const char *
sqlite3_errmsg(sqlite3 *db)
{
	return lib.errmsg(db);
}
