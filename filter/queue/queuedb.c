/*
 * queuedb.c - the queue's SQLite file: where it is, opened in WAL mode
 * with a busy timeout (SQLite's own locking makes one writer at a time
 * across processes), its schema, a corrupt file set aside, and the
 * state names.
 */
#include "queue/queue-int.h"
#include "core/util.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

/* "LORQ": the file is lore-am's queue, not another program's database */
#define QUEUE_APP_ID 0x4c4f5251
/* 2: each patch's patch-id (patches), the applied scans (scans); a file
 * of 1 gains them */
#define QUEUE_SCHEMA 2
/* deliveries at once wait for each other this long, in milliseconds */
#define QUEUE_BUSY_MS 10000
/*
 * The WAL a recording run leaves (queue_seen_only()) is read whole by the
 * next run that opens the file (SQLite rebuilds its index, the -shm, when
 * no other connection has it): 5 400 instructions and a pread(2) a page,
 * about 2.2 pages a mail. Past this many pages, the run that commits
 * copies them into the file and empties the WAL (a checkpoint: the one
 * step with fdatasync(2) calls): once in about 29 mails, and at most
 * 0.35 M instructions a mail for the reading.
 */
#define QUEUE_WAL_FRAMES 64
/* how long that checkpoint waits for other runs to leave the WAL; when
 * they do not, a later run does it */
#define QUEUE_CKPT_WAIT_MS 1000

G_DEFINE_QUARK(lore - am - queue - error - quark, queue_error)

static const char *const state_names[QUEUE_N_STATES] = {
    "new",     "complete", "reviewed", "superseded",
    "applied", "thanked",  "rejected",
};

const char *
queue_state_name(enum queue_state s)
{
	return s < QUEUE_N_STATES ? state_names[s] : "unknown";
}

gboolean
queue_state_parse(const char *name, enum queue_state *out)
{
	guint i;

	for (i = 0; i < QUEUE_N_STATES; i++) {
		if (!g_ascii_strcasecmp(name, state_names[i])) {
			*out = (enum queue_state)i;
			return TRUE;
		}
	}
	return FALSE;
}

void
queue_seen_clear(struct queue_seen *s)
{
	g_free(s->reviews);
	memset(s, 0, sizeof(*s));
}

char *
queue_path(void)
{
	const char *x = g_getenv("XDG_DATA_HOME");

	if (x && *x)
		return g_build_filename(x, "lore-am", "queue.sqlite", NULL);
	return g_build_filename(g_get_home_dir(), ".local", "share", "lore-am",
				"queue.sqlite", NULL);
}

gboolean
queue_check(struct queue *q, int rc, GError **err)
{
	if (rc == SQLITE_OK || rc == SQLITE_DONE || rc == SQLITE_ROW)
		return TRUE;
	if (err && !*err)
		g_set_error(err, QUEUE_ERROR, rc, "%s",
			    q->db ? sqlite3_errmsg(q->db) : sqlite3_errstr(rc));
	return FALSE;
}

gboolean
queue_exec(struct queue *q, const char *sql, GError **err)
{
	return queue_check(q, sqlite3_exec(q->db, sql, NULL, NULL, NULL), err);
}

sqlite3_stmt *
queue_prepare(struct queue *q, const char *sql, GError **err)
{
	sqlite3_stmt *st = NULL;

	if (!queue_check(q, sqlite3_prepare_v2(q->db, sql, -1, &st, NULL), err))
		return NULL;
	return st;
}

static void
stmt_free(gpointer st)
{
	sqlite3_finalize(st);
}

sqlite3_stmt *
queue_stmt(struct queue *q, const char *sql, GError **err)
{
	sqlite3_stmt *st;

	if (!q->stmts)
		q->stmts = g_hash_table_new_full(g_str_hash, g_str_equal, NULL,
						 stmt_free);
	st = g_hash_table_lookup(q->stmts, sql);
	if (st) {
		sqlite3_reset(st);
		sqlite3_clear_bindings(st);
		return st;
	}
	st = queue_prepare(q, sql, err);
	if (st)
		g_hash_table_insert(q->stmts, (gpointer)sql, st);
	return st;
}

/* Every kept statement reset: none holds a read open past a commit. */
static void
reset_stmts(struct queue *q)
{
	GHashTableIter it;
	gpointer st;

	if (!q->stmts)
		return;
	g_hash_table_iter_init(&it, q->stmts);
	while (g_hash_table_iter_next(&it, NULL, &st))
		sqlite3_reset(st);
}

gboolean
queue_int(struct queue *q, const char *sql, const char *text, gint64 *out,
	  GError **err)
{
	sqlite3_stmt *st = queue_stmt(q, sql, err);
	gboolean ok;
	int rc;

	if (!st)
		return FALSE;
	if (text)
		sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int64(st, 0);
	/* a damaged page is an error, not "no row" (checked before the
	 * reset, while the connection's message is the step's) */
	ok = queue_check(q, rc, err);
	sqlite3_reset(st);
	return ok;
}

const char *
queue_col(sqlite3_stmt *st, int col)
{
	const char *s = (const char *)sqlite3_column_text(st, col);

	return s ? s : "";
}

gboolean
queue_begin(struct queue *q, GError **err)
{
	return queue_exec(q, "BEGIN IMMEDIATE", err);
}

gboolean
queue_end(struct queue *q, gboolean ok, GError **err)
{
	reset_stmts(q);
	if (ok && queue_exec(q, "COMMIT", err))
		return TRUE;
	queue_exec(q, "ROLLBACK", NULL);
	return FALSE;
}

static const char schema[] =
    "CREATE TABLE IF NOT EXISTS series("
    " id INTEGER PRIMARY KEY,"
    " key TEXT NOT NULL UNIQUE,"
    " change_id TEXT,"
    " author TEXT NOT NULL,"
    " title TEXT NOT NULL,"
    " subject TEXT NOT NULL,"
    " first_seen INTEGER NOT NULL,"
    " last_seen INTEGER NOT NULL,"
    " applied INTEGER NOT NULL DEFAULT 0,"
    " applied_note TEXT,"
    " thanked INTEGER NOT NULL DEFAULT 0,"
    " rejected INTEGER NOT NULL DEFAULT 0);"
    "CREATE INDEX IF NOT EXISTS series_title ON series(author, title);"
    "CREATE INDEX IF NOT EXISTS series_change ON series(change_id);"
    "CREATE INDEX IF NOT EXISTS series_seen ON series(last_seen);"
    "CREATE TABLE IF NOT EXISTS revisions("
    " series INTEGER NOT NULL,"
    " revision INTEGER NOT NULL,"
    " root TEXT NOT NULL,"
    " expected INTEGER NOT NULL,"
    " present INTEGER NOT NULL,"
    " reviews TEXT NOT NULL,"
    " files TEXT,"
    " first_seen INTEGER NOT NULL,"
    " PRIMARY KEY(series, revision));"
    "CREATE TABLE IF NOT EXISTS messages("
    " msgid TEXT PRIMARY KEY,"
    " series INTEGER NOT NULL,"
    " revision INTEGER NOT NULL) WITHOUT ROWID;"
    "CREATE INDEX IF NOT EXISTS messages_series ON messages(series, revision);"
    "CREATE TABLE IF NOT EXISTS patches("
    " series INTEGER NOT NULL,"
    " revision INTEGER NOT NULL,"
    " number INTEGER NOT NULL,"
    " patchid TEXT NOT NULL,"
    " PRIMARY KEY(series, revision, number)) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS scans("
    " top TEXT PRIMARY KEY,"
    " head TEXT NOT NULL,"
    " pending TEXT NOT NULL);";

/* A new file gets the schema, one of an older schema the tables it
 * lacks (each made IF NOT EXISTS); an existing one must be ours. A newer
 * lore-am's file is refused, not set aside as corrupt. */
static gboolean
check_schema(struct queue *q, GError **err)
{
	gint64 app = -1, ver = -1;
	g_autofree char *set = NULL;

	if (!queue_int(q, "PRAGMA application_id", NULL, &app, err) ||
	    !queue_int(q, "PRAGMA user_version", NULL, &ver, err))
		return FALSE;
	if (app == QUEUE_APP_ID && ver == QUEUE_SCHEMA)
		return TRUE;
	if (app == QUEUE_APP_ID && ver > QUEUE_SCHEMA) {
		g_set_error(err, QUEUE_ERROR, SQLITE_CANTOPEN,
			    "is from a newer version of lore-am (schema "
			    "%" G_GINT64_FORMAT ")",
			    ver);
		return FALSE;
	}
	if (app != QUEUE_APP_ID && (app != 0 || ver != 0)) {
		g_set_error(err, QUEUE_ERROR, SQLITE_NOTADB, "%s",
			    "is not lore-am's queue");
		return FALSE;
	}
	set = g_strdup_printf("PRAGMA application_id = %d;"
			      "PRAGMA user_version = %d;",
			      QUEUE_APP_ID, QUEUE_SCHEMA);
	return queue_begin(q, err) &&
	       queue_end(q,
			 queue_exec(q, schema, err) && queue_exec(q, set, err),
			 err);
}

static gboolean
corrupt(const GError *e)
{
	return e && e->domain == QUEUE_ERROR &&
	       ((e->code & 0xff) == SQLITE_CORRUPT ||
		(e->code & 0xff) == SQLITE_NOTADB);
}

/* The corrupt file and its journals moved aside: the next run starts a
 * new one, rebuilt from what it sees. */
static void
set_aside(const char *path)
{
	static const char *const ext[] = {"-wal", "-shm"};
	g_autofree char *to = g_strconcat(path, ".corrupt", NULL);
	guint i;

	if (g_rename(path, to) < 0)
		return;
	for (i = 0; i < G_N_ELEMENTS(ext); i++) {
		g_autofree char *f = g_strconcat(path, ext[i], NULL);

		g_unlink(f);
	}
}

static gboolean
open_db(struct queue *q, GError **err)
{
	g_autofree char *dir = g_path_get_dirname(q->path);

	if (g_mkdir_with_parents(dir, 0700)) {
		g_set_error(err, QUEUE_ERROR, SQLITE_CANTOPEN,
			    "cannot create its folder: %s", g_strerror(errno));
		return FALSE;
	}
	if (!queue_check(q, sqlitelib_start(), err))
		return FALSE;
	if (!queue_check(q,
			 sqlite3_open_v2(q->path, &q->db,
					 SQLITE_OPEN_READWRITE |
					     SQLITE_OPEN_CREATE |
					     SQLITE_OPEN_NOMUTEX,
					 NULL),
			 err))
		return FALSE;
	sqlite3_busy_timeout(q->db, QUEUE_BUSY_MS);
	/* WAL: readers never wait for the writer; NORMAL: a commit is not
	 * synced, a checkpoint is (the queue is rebuilt from mail anyway; a
	 * recording run leaves its commits for a later checkpoint,
	 * queue_seen_only(); a mark syncs its own, queue_mark_note()) */
	/* a file that is not a database, or whose schema is damaged, fails
	 * here (the schema is read); a damaged page of a table fails the
	 * statement that reads it, and queue_failed() sets the file aside
	 * then (a probe of one table here, 49 000 instructions a mail, found
	 * nothing the schema's read does not) */
	return queue_exec(q, "PRAGMA journal_mode = WAL", err) &&
	       queue_exec(q, "PRAGMA synchronous = NORMAL", err) &&
	       check_schema(q, err);
}

struct queue *
queue_open(GError **err)
{
	struct queue *q = g_new0(struct queue, 1);
	GError *e = NULL;

	q->path = queue_path();
	if (open_db(q, &e)) {
		return q;
	}
	if (corrupt(e))
		set_aside(q->path);
	g_prefix_error(&e, "%s %s: ",
		       corrupt(e) ? "queue file set aside, to be rebuilt:"
				  : "cannot use the queue file",
		       q->path);
	g_propagate_error(err, e);
	queue_close(q);
	return NULL;
}

void
queue_failed(struct queue *q, GError **err)
{
	g_autofree char *path = g_strdup(q->path);
	gboolean bad = corrupt(*err);

	queue_close(q);
	if (bad)
		set_aside(path);
	if (bad)
		g_prefix_error(
		    err, "queue file set aside, to be rebuilt: %s: ", path);
	else
		g_prefix_error(err, "queue %s: not updated: ", path);
}

/*
 * After each commit of a recording run (sqlite3_wal_hook()): a WAL of
 * QUEUE_WAL_FRAMES pages or more copied into the file and emptied
 * (TRUNCATE). SQLite's own automatic checkpoint copies the pages but
 * leaves them in the WAL for a later writer of the same open file to
 * overwrite; a new run rebuilding the WAL's index counts them as not
 * copied, so each run read the whole WAL, copied it again with its
 * fdatasync(2) calls and added its own pages: it only grew.
 */
static int
wal_full(void *data, sqlite3 *db, const char *name, int pages)
{
	(void)data;
	(void)name;
	if (pages < QUEUE_WAL_FRAMES)
		return SQLITE_OK;
	sqlite3_busy_timeout(db, QUEUE_CKPT_WAIT_MS);
	sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)", NULL, NULL, NULL);
	sqlite3_busy_timeout(db, QUEUE_BUSY_MS);
	return SQLITE_OK;
}

void
queue_seen_only(struct queue *q)
{
	int on = 0;

	sqlite3_db_config(q->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, &on);
	sqlite3_wal_hook(q->db, wal_full, NULL);
}

void
queue_close(struct queue *q)
{
	if (!q)
		return;
	if (q->revs)
		sqlite3_finalize(q->revs);
	if (q->stmts)
		g_hash_table_destroy(q->stmts);
	if (q->db)
		sqlite3_close_v2(q->db);
	g_free(q->path);
	g_free(q);
}

enum queue_state
queue_rev_state(int rev, int latest, int applied, int thanked, int rejected,
		int expected, int present, int reviewed)
{
	if (rev < latest)
		return QUEUE_SUPERSEDED;
	if (rejected == rev)
		return QUEUE_REJECTED;
	if (thanked == rev)
		return QUEUE_THANKED;
	if (applied == rev)
		return QUEUE_APPLIED;
	if (expected <= 0 || present < expected)
		return QUEUE_NEW;
	return reviewed >= expected ? QUEUE_REVIEWED : QUEUE_COMPLETE;
}

void
queue_count_reviews(const char *reviews, int *patches, int *total)
{
	const char *p = reviews ? reviews : "";
	int sum = 0;

	/* "R/A/T R/A/T ...": a list of 10 000 series reads 50 000 of them,
	 * digits summed as they come (sscanf() took most of the time) */
	*patches = *total = 0;
	for (;; p++) {
		if (g_ascii_isdigit(*p)) {
			int n = 0;

			while (g_ascii_isdigit(*p) && n < 100000)
				n = n * 10 + (*p++ - '0');
			sum += n;
			p--;
		} else if (*p == ' ' || !*p) {
			*patches += sum > 0;
			*total += sum;
			sum = 0;
			if (!*p)
				break;
		}
	}
}
