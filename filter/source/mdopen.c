/*
 * mdopen.c - the index file of a mailbox (mdindex.h) and the database
 * plumbing the index's files share: where the file is, opening it with its
 * schema, knowing it for lore-am's (SQLite's application_id and
 * user_version, as a file format tells its own files), when its WAL is
 * copied into it (mdindex_checkpoint(): the one step that waits for the
 * disk), removing it, and remembering that the cache folder was too full
 * to build it.
 */
#include "source/cache.h"
#include "source/mdindex-int.h"
#include "core/util.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/statvfs.h>
#include <unistd.h>

/* "LrAm": what PRAGMA application_id says of a lore-am index */
#define MDINDEX_APP_ID 0x4c72416d

G_DEFINE_QUARK(lore - am - mdindex - error - quark, mdindex_error)

gboolean
mdindex_fail(struct mdindex *x, int rc, GError **err)
{
	if (err && !*err)
		g_set_error(err, MDINDEX_ERROR, rc, "%s",
			    x->db ? sqlite3_errmsg(x->db) : sqlite3_errstr(rc));
	return FALSE;
}

gboolean
mdindex_exec(struct mdindex *x, const char *sql, GError **err)
{
	int rc = sqlite3_exec(x->db, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK || mdindex_fail(x, rc, err);
}

sqlite3_stmt *
mdindex_prepare(struct mdindex *x, const char *sql, GError **err)
{
	sqlite3_stmt *s = NULL;
	int rc = sqlite3_prepare_v2(x->db, sql, -1, &s, NULL);

	if (rc != SQLITE_OK) {
		mdindex_fail(x, rc, err);
		sqlite3_finalize(s);
		return NULL;
	}
	return s;
}

gboolean
mdindex_query(struct mdindex *x, const char *sql, const char *arg, gint64 *v,
	      GError **err)
{
	sqlite3_stmt *s = mdindex_prepare(x, sql, err);
	int rc;

	if (!s)
		return FALSE;
	if (arg)
		sqlite3_bind_text(s, 1, arg, -1, SQLITE_STATIC);
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW)
		*v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ||
	       mdindex_fail(x, rc, err);
}

gint64
mdindex_query_int(struct mdindex *x, const char *sql, const char *arg,
		  gint64 def)
{
	gint64 v = def;

	return mdindex_query(x, sql, arg, &v, NULL) ? v : def;
}

gint64
mdindex_state(struct mdindex *x, const char *k, gint64 def)
{
	return mdindex_query_int(x, "SELECT v FROM state WHERE k = ?", k, def);
}

gboolean
mdindex_set_state(struct mdindex *x, const char *k, gint64 v, GError **err)
{
	sqlite3_stmt *s = mdindex_prepare(
	    x, "INSERT OR REPLACE INTO state (k, v) VALUES (?, ?)", err);
	int rc;

	if (!s)
		return FALSE;
	sqlite3_bind_text(s, 1, k, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 2, v);
	rc = sqlite3_step(s);
	sqlite3_finalize(s);
	return rc == SQLITE_DONE || mdindex_fail(x, rc, err);
}

static const char schema[] =
    "CREATE TABLE msg (id INTEGER PRIMARY KEY, dir INTEGER, name TEXT,"
    " uniq TEXT, off INTEGER, len INTEGER, msgid TEXT, sender TEXT,"
    " refs TEXT, date INTEGER, subject TEXT, big INTEGER);"
    "CREATE INDEX msg_msgid ON msg (msgid);"
    "CREATE INDEX msg_dir ON msg (dir, off);"
    "CREATE INDEX msg_big ON msg (big) WHERE big = 1;"
    "CREATE TABLE ref (ref TEXT, msg INTEGER, PRIMARY KEY (ref, msg))"
    " WITHOUT ROWID;"
    "CREATE TABLE state (k TEXT PRIMARY KEY, v);";

/*
 * Is the open file an index of this version of lore-am? 1 yes, 0 no, -1
 * (and @err) when it cannot be read: a file that is busy is not a foreign
 * one, and must not be removed as one.
 */
static int
ours(struct mdindex *x, GError **err)
{
	gint64 app = -1, version = -1;

	if (!mdindex_query(x, "PRAGMA application_id", NULL, &app, err) ||
	    !mdindex_query(x, "PRAGMA user_version", NULL, &version, err))
		return -1;
	return app == MDINDEX_APP_ID && version == MDINDEX_VERSION;
}

/* The error for a file that is no index of this lore-am. */
static void
set_foreign(struct mdindex *x, GError **err)
{
	gint64 app = -1, msg = 0;
	gboolean lore;

	/* what it was only changes the words */
	mdindex_query(x, "PRAGMA application_id", NULL, &app, NULL);
	mdindex_query(x,
		      "SELECT count(*) FROM sqlite_master WHERE name = 'msg'",
		      NULL, &msg, NULL);
	lore = app == MDINDEX_APP_ID || msg > 0;
	g_set_error(err, MDINDEX_ERROR, MDINDEX_EFOREIGN, "%s",
		    lore ? "is from another version of lore-am"
			 : "is not lore-am's (another program's database)");
}

/*
 * An empty file gets the schema; anything else must be ours already: a
 * database of another program, or of another version of lore-am, is
 * MDINDEX_EFOREIGN (the caller builds it again). Only what was read is
 * judged: a failed read is an error of its own (busy, I/O).
 */
static gboolean
check_schema(struct mdindex *x, GError **err)
{
	g_autofree char *stamp =
	    g_strdup_printf("PRAGMA application_id = %d; "
			    "PRAGMA user_version = %d",
			    MDINDEX_APP_ID, MDINDEX_VERSION);
	gint64 tables = -1;
	int is = ours(x, err);

	if (is > 0)
		return TRUE;
	if (is < 0 || !mdindex_exec(x, "BEGIN IMMEDIATE", err))
		return FALSE;
	/* another run may have made it while we waited for the lock */
	if (mdindex_query(x, "SELECT count(*) FROM sqlite_master", NULL,
			  &tables, err)) {
		if (tables == 0 && mdindex_exec(x, schema, err) &&
		    mdindex_exec(x, stamp, err) &&
		    mdindex_exec(x, "COMMIT", err))
			return TRUE;
		if (tables > 0 && (is = ours(x, err)) == 0)
			set_foreign(x, err);
	}
	sqlite3_exec(x->db, "ROLLBACK", NULL, NULL, NULL);
	return tables > 0 && is > 0;
}

int
mdindex_wait(void *data, int n)
{
	struct mdindex *x = data;
	gint64 left = x->deadline - g_get_monotonic_time();

	if (left <= 0)
		return 0;
	g_usleep(MIN(left, (gint64)MIN(n + 1, 50) * 1000));
	return 1;
}

/*
 * Run @sql, waiting as the busy handler does also when SQLite answers
 * SQLITE_BUSY without asking it: switching a new, empty file to WAL is a
 * write that begins as a read, and SQLite does not wait there (it cannot
 * tell that the other writer does not wait for that read); it is tried
 * again, and the other opener has made the file WAL meanwhile.
 */
static gboolean
exec_waiting(struct mdindex *x, const char *sql, GError **err)
{
	int rc, n = 0;

	while ((rc = sqlite3_exec(x->db, sql, NULL, NULL, NULL)) ==
		   SQLITE_BUSY &&
	       mdindex_wait(x, n++))
		;
	return rc == SQLITE_OK || mdindex_fail(x, rc, err);
}

/*
 * Open (or make) @file in @x->db and note which file SQLite opened: the
 * one the name gave before and after the open. Another run may remove and
 * make the file again meanwhile; taking the new file's number for the one
 * this connection holds would make this run take that new file for its
 * own (remove it on the I/O error the swapped -wal and -shm bring, instead
 * of opening it again). So a name that changed is opened again.
 */
static int
open_named(struct mdindex *x, const char *file)
{
	GStatBuf st0, st;
	int rc, tries;

	for (tries = 0;; tries++) {
		gboolean before = g_stat(file, &st0) == 0;

		rc =
		    sqlite3_open_v2(file, &x->db,
				    SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
					SQLITE_OPEN_NOMUTEX,
				    NULL);
		if (rc != SQLITE_OK || g_stat(file, &st) != 0)
			return rc;
		if (!before ||
		    (st0.st_ino == st.st_ino && st0.st_dev == st.st_dev)) {
			x->dev = (guint64)st.st_dev;
			x->ino = (guint64)st.st_ino;
			return rc;
		}
		/* which file is unknown: this run removes none */
		if (tries == 8)
			return rc;
		sqlite3_close_v2(x->db);
		x->db = NULL;
	}
}

/* After each commit (sqlite3_wal_hook()): the WAL's pages, for
 * mdindex_checkpoint(). */
static int
wal_count(void *data, sqlite3 *db, const char *name, int pages)
{
	struct mdindex *x = data;

	(void)db;
	(void)name;
	x->wal_pages = pages;
	return SQLITE_OK;
}

gboolean
mdindex_open(struct mdindex *x, const char *file, GError **err)
{
	g_autofree char *dir = g_path_get_dirname(file);
	int rc, on = 0;

	x->dev = x->ino = 0;
	x->wal_pages = 0;
	if (g_mkdir_with_parents(dir, 0700)) {
		g_set_error(err, MDINDEX_ERROR, SQLITE_CANTOPEN,
			    "cannot create its folder: %s", g_strerror(errno));
		return FALSE;
	}
	rc = sqlitelib_start();
	if (rc == SQLITE_OK)
		rc = open_named(x, file);
	if (rc != SQLITE_OK)
		return mdindex_fail(x, rc, err);
	/* eight mail deliveries at once wait for each other, within reason */
	sqlite3_busy_handler(x->db, mdindex_wait, x);
	/*
	 * A page cache of up to 256 MiB (grown only as pages are read): the
	 * first build of a 1 000 000-message maildir, whose index is 283 MB,
	 * thrashed a 32 MiB one (42 s against 27.6 s for the plain scan;
	 * 35 s with this one, peak RSS 382 MB against the scan's 1.7 GB).
	 * Warm runs read a few pages and stay small.
	 */
	if (!mdindex_exec(x, "PRAGMA cache_size = -262144", err))
		return FALSE;
	/*
	 * The index is a cache of the mailbox: a commit a power cut takes
	 * back is read again from the mail by the next run (the folder's
	 * stamps are in the same commit as its rows). So a commit is not
	 * synced (synchronous = NORMAL: it stays in the WAL, whose checksums
	 * give back a whole prefix of the commits), the close leaves the WAL
	 * as it is instead of copying it into the file with two fdatasync(2)
	 * calls, and mdindex_checkpoint() copies it once it has grown. Only
	 * a new file's switch to WAL is not synced at all (OFF): a cut there
	 * leaves it empty, or not a database, and it is built again.
	 */
	sqlite3_db_config(x->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, &on);
	sqlite3_wal_hook(x->db, wal_count, x);
	return mdindex_exec(x, "PRAGMA synchronous = OFF", err) &&
	       exec_waiting(x, "PRAGMA journal_mode = WAL", err) &&
	       mdindex_exec(x, "PRAGMA synchronous = NORMAL", err) &&
	       check_schema(x, err);
}

/*
 * The WAL's pages past which a run copies it into the file: the next run
 * to open the file reads the whole WAL (SQLite rebuilds the WAL's index,
 * the -shm, when no other connection holds it) and looks pages up in it:
 * about 5 000 instructions a page (measured: 0.6 M for 126 pages). A mail
 * added to a maildir's index writes 6 pages (9 now and then, on 50- and
 * 20 000-message maildirs): a checkpoint once in about 20 mails.
 */
#define MDINDEX_WAL_FRAMES 128
/* how long the checkpoint waits for other runs to leave the WAL; when
 * they do not, a later run does it */
#define MDINDEX_CKPT_WAIT_US (G_USEC_PER_SEC / 2)

void
mdindex_checkpoint(struct mdindex *x)
{
	gint64 deadline = x->deadline, busy = 1;

	if (x->wal_pages < MDINDEX_WAL_FRAMES)
		return;
	x->deadline =
	    MIN(deadline, g_get_monotonic_time() + MDINDEX_CKPT_WAIT_US);
	/*
	 * TRUNCATE: SQLite's own (PASSIVE) checkpoint leaves the copied
	 * pages in the WAL, and the next run, rebuilding the WAL's index,
	 * would take them for new ones and read them all. Then the new WAL
	 * is begun here, by a commit of its own: SQLite syncs a new WAL's
	 * header, and that sync is this run's, not the next run's, whose
	 * commit then only appends to the WAL.
	 */
	if (mdindex_query(x, "PRAGMA wal_checkpoint(TRUNCATE)", NULL, &busy,
			  NULL) &&
	    !busy)
		mdindex_set_state(x, "checkpoints",
				  mdindex_state(x, "checkpoints", 0) + 1, NULL);
	x->deadline = deadline;
	x->wal_pages = 0;
}

char *
mdindex_file(const char *real)
{
	g_autofree char *cache = cache_default_dir();
	g_autofree char *h =
	    g_compute_checksum_for_string(G_CHECKSUM_SHA256, real, -1);
	g_autofree char *name = g_strconcat(h, ".sqlite3", NULL);

	return g_build_filename(cache, "index", name, NULL);
}

gboolean
mdindex_replaced(const struct mdindex *x, const char *file)
{
	GStatBuf st;

	if (!x->ino)
		return FALSE;
	return g_stat(file, &st) != 0 || st.st_ino != x->ino ||
	       (guint64)st.st_dev != x->dev;
}

/*
 * Several runs may judge one bad file at once, and the first to remove it
 * builds a new one: the others must not remove that (nor its -wal and
 * -shm under its connections, which SQLite then answers with I/O errors).
 * Removers take turns on the index folder (flock), and each removes only
 * the file it opened.
 */
guint64
mdindex_remove(const struct mdindex *x, const char *file)
{
	static const char *const ext[] = {"", "-wal", "-shm"};
	g_autofree char *dir = g_path_get_dirname(file);
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	guint64 freed = 0;
	GStatBuf st;
	guint i;

	if (fd >= 0)
		flock(fd, LOCK_EX);
	if (x->ino && g_stat(file, &st) == 0 && st.st_ino == x->ino &&
	    (guint64)st.st_dev == x->dev) {
		for (i = 0; i < G_N_ELEMENTS(ext); i++) {
			g_autofree char *f = g_strconcat(file, ext[i], NULL);

			if (g_stat(f, &st) == 0 && unlink(f) == 0)
				freed += (guint64)st.st_size;
		}
	}
	if (fd >= 0)
		close(fd);
	return freed;
}

/* ---- a cache folder too full to build the index in ---- */

static char *
full_mark(const char *file)
{
	return g_strconcat(file, ".full", NULL);
}

void
mdindex_mark_full(const char *file, guint64 needs)
{
	g_autofree char *mark = full_mark(file);
	g_autofree char *text =
	    g_strdup_printf("%" G_GUINT64_FORMAT "\n", needs);

	/* the unfinished index was removed first: there is room for this */
	g_file_set_contents(mark, text, -1, NULL);
}

gboolean
mdindex_room(const char *file, guint64 *needs, guint64 *avail)
{
	g_autofree char *mark = full_mark(file);
	g_autofree char *text = NULL;
	g_autofree char *dir = g_path_get_dirname(file);
	struct statvfs vfs;

	*needs = *avail = 0;
	if (!g_file_get_contents(mark, &text, NULL, NULL))
		return TRUE;
	/* an index another run built since: the folder had room after all */
	if (g_file_test(file, G_FILE_TEST_EXISTS) ||
	    !g_ascii_string_to_unsigned(g_strstrip(text), 10, 0, G_MAXINT64,
					needs, NULL) ||
	    statvfs(dir, &vfs) < 0) {
		unlink(mark);
		return TRUE;
	}
	*avail = (guint64)vfs.f_bavail * vfs.f_frsize;
	if (*avail < *needs)
		return FALSE;
	unlink(mark);
	return TRUE;
}
