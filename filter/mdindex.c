/*
 * mdindex.c - the index database of one mailbox (SQLite in WAL mode:
 * readers never wait, one writer at a time), and the thread read through
 * it: the messages the walk (mdwalk.c) found are read, checked against
 * their rows, and added in the plain scan's order (cur/ then new/ by
 * name, as mbox.c walks a maildir; an mbox by offset).
 */
#include "mdindex.h"
#include "cache.h"
#include "config.h"
#include "mbox.h"
#include "mdindex-int.h"
#include "message.h"
#include "util.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* an index file that is not ours, or rows that disagree with the mail */
#define MDINDEX_EFOREIGN 1000

G_DEFINE_QUARK(lore - am - mdindex - error - quark, mdindex_error)

static gboolean enabled = TRUE;
/*
 * lore-am.index-min-messages: a mailbox smaller than this is read whole,
 * the plain scan being cheaper there than keeping and asking its index
 * (measured: on a 3 235-message mbox holding one thread, a warm indexed
 * run took 1.5x the instructions of the plain scan). An mbox file counts
 * as one message per 2 KiB.
 */
#define MIN_MESSAGES_DEFAULT 4000
static guint64 min_messages = MIN_MESSAGES_DEFAULT;

void
mdindex_setup(struct config *cfg, gboolean off)
{
	const char *v = config_get(cfg, "index", NULL);

	enabled = !off && (!v || config_bool(v));
	v = config_get(cfg, "index-min-messages", NULL);
	if (!v || !g_ascii_string_to_unsigned(v, 10, 0, G_MAXUINT32,
					      &min_messages, NULL))
		min_messages = MIN_MESSAGES_DEFAULT;
}

void
mdindex_refs(GString *out, const struct message *m)
{
	guint i;

	if (m->in_reply_to)
		g_string_append_printf(out, "%s\n", m->in_reply_to);
	for (i = 0; i < m->refs->len; i++)
		g_string_append_printf(out, "%s\n", (char *)m->refs->pdata[i]);
}

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

/* One integer of a one-row query; @def without a row or on error. */
static gint64
query_int(struct mdindex *x, const char *sql, const char *arg, gint64 def)
{
	sqlite3_stmt *s = mdindex_prepare(x, sql, NULL);
	gint64 v = def;

	if (!s)
		return def;
	if (arg)
		sqlite3_bind_text(s, 1, arg, -1, SQLITE_STATIC);
	if (sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return v;
}

gint64
mdindex_state(struct mdindex *x, const char *k, gint64 def)
{
	return query_int(x, "SELECT v FROM state WHERE k = ?", k, def);
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

/* An empty file gets the schema; anything else must be ours already. */
static gboolean
check_schema(struct mdindex *x, GError **err)
{
	gint64 v = query_int(x, "PRAGMA user_version", NULL, -1);

	if (v == MDINDEX_VERSION)
		return TRUE;
	if (v == 0 && mdindex_exec(x, "BEGIN IMMEDIATE", err)) {
		v = query_int(x, "PRAGMA user_version", NULL, -1);
		if (v == 0 &&
		    query_int(x, "SELECT count(*) FROM sqlite_master", NULL, 1))
			v = -1;
		if (v == 0 && mdindex_exec(x, schema, err) &&
		    mdindex_exec(x, "PRAGMA user_version = 1", err) &&
		    mdindex_exec(x, "COMMIT", err))
			return TRUE;
		sqlite3_exec(x->db, "ROLLBACK", NULL, NULL, NULL);
		if (v == MDINDEX_VERSION)
			return TRUE;
		if (err && *err)
			return FALSE;
	}
	if (err && !*err) {
		if (v < 0)
			mdindex_fail(x, sqlite3_errcode(x->db), err);
		else
			g_set_error(err, MDINDEX_ERROR, MDINDEX_EFOREIGN,
				    "it is from another version of lore-am");
	}
	if (err && *err && (*err)->code == SQLITE_OK)
		(*err)->code = MDINDEX_EFOREIGN;
	return FALSE;
}

static gboolean
open_db(struct mdindex *x, const char *file, GError **err)
{
	g_autofree char *dir = g_path_get_dirname(file);
	int rc;

	if (g_mkdir_with_parents(dir, 0700)) {
		g_set_error(err, MDINDEX_ERROR, SQLITE_CANTOPEN,
			    "cannot create its folder: %s", g_strerror(errno));
		return FALSE;
	}
	rc = sqlite3_open_v2(file, &x->db,
			     SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
				 SQLITE_OPEN_NOMUTEX,
			     NULL);
	if (rc != SQLITE_OK)
		return mdindex_fail(x, rc, err);
	/* eight mail deliveries at once wait for each other, within reason */
	sqlite3_busy_timeout(x->db, 10000);
	/*
	 * A page cache of up to 256 MiB (grown only as pages are read): the
	 * first build of a 1 000 000-message maildir, whose index is 283 MB,
	 * thrashed a 32 MiB one (42 s against 27.6 s for the plain scan;
	 * 35 s with this one, peak RSS 382 MB against the scan's 1.7 GB).
	 * Warm runs read a few pages and stay small.
	 */
	return mdindex_exec(x, "PRAGMA journal_mode = WAL", err) &&
	       mdindex_exec(x, "PRAGMA synchronous = NORMAL", err) &&
	       mdindex_exec(x, "PRAGMA cache_size = -262144", err) &&
	       check_schema(x, err);
}

/* The index of @real (the mailbox's canonical path): one file per path. */
static char *
index_file(const char *real)
{
	g_autofree char *cache = cache_default_dir();
	g_autofree char *h =
	    g_compute_checksum_for_string(G_CHECKSUM_SHA256, real, -1);
	g_autofree char *name = g_strconcat(h, ".sqlite3", NULL);

	return g_build_filename(cache, "index", name, NULL);
}

static void
remove_index(const char *file)
{
	static const char *const ext[] = {"", "-wal", "-shm"};
	guint i;

	for (i = 0; i < G_N_ELEMENTS(ext); i++) {
		g_autofree char *f = g_strconcat(file, ext[i], NULL);

		unlink(f);
	}
}

/* ---- reading what was found ---- */

struct got {
	GPtrArray *msgs; /* struct message *, parsed in order */
	const struct mdindex_row *row;
	gboolean bad;  /* the mail disagrees with its row */
	gboolean gone; /* a file went away meanwhile */
};

static void
parse_one(const char *buf, size_t len, void *data)
{
	struct got *g = data;
	struct message *m = message_parse(buf, len, NULL);
	GString *refs = g_string_new(NULL);

	if (m && m->msgid)
		mdindex_refs(refs, m);
	/* never trusted: a row that no longer says what the mail says */
	if (!m || g_strcmp0(m->msgid, g->row->msgid) ||
	    strcmp(refs->str, g->row->refs)) {
		g->bad = TRUE;
		message_free(m);
	} else {
		g_ptr_array_add(g->msgs, m);
	}
	g_string_free(refs, TRUE);
}

static gboolean
read_rows(struct mdindex *x, GPtrArray *rows, struct got *g, GError **err)
{
	static const char *const subs[] = {"cur", "new"};
	int fd = -1;
	guint i;

	if (!x->maildir && (fd = open(x->path, O_RDONLY | O_CLOEXEC)) < 0) {
		g_set_error(err, MDINDEX_ERROR, SQLITE_IOERR,
			    "cannot read it: %s", g_strerror(errno));
		return FALSE;
	}
	for (i = 0; i < rows->len && !g->bad; i++) {
		const struct mdindex_row *r = rows->pdata[i];

		g->row = r;
		if (r->dir == MDINDEX_DIR_MBOX) {
			char *buf = g_malloc(r->len + 1);

			if (x->maildir ||
			    pread(fd, buf, r->len, r->off) != (ssize_t)r->len)
				g->bad = TRUE;
			else
				mbox_unquote(buf, r->len, parse_one, g);
			g_free(buf);
		} else {
			g_autofree char *f = g_build_filename(
			    x->path, subs[r->dir & 1], r->name, NULL);
			GBytes *b = mbox_slurp(f, 0, NULL);
			gsize n;
			const char *p;

			/* renamed or removed since the update: the plain
			 * scan, now, sees the folder as it is */
			if (!b) {
				g->gone = TRUE;
				break;
			}
			p = g_bytes_get_data(b, &n);
			parse_one(p, n, g);
			g_bytes_unref(b);
		}
	}
	if (fd >= 0)
		close(fd);
	if (g->gone)
		return FALSE;
	if (g->bad)
		g_set_error(err, MDINDEX_ERROR, MDINDEX_EFOREIGN,
			    "it disagrees with the mailbox");
	return !g->bad;
}

gboolean
mdindex_read(struct mdindex *x, GPtrArray *rows, GPtrArray *msgs)
{
	struct got g = {.msgs = msgs};

	return read_rows(x, rows, &g, NULL) && msgs->len == rows->len;
}

/* The walk and the reading; MDINDEX_PLAIN when the folder lacks @msgid. */
static int
gather(struct mdindex *x, const char *msgid, struct thread *t,
       const char *origin, guint *added, GError **err)
{
	struct got g = {.msgs = g_ptr_array_new_with_free_func(
			    (GDestroyNotify)message_free)};
	gboolean found = FALSE;
	GPtrArray *rows = mdindex_walk(x, msgid, t, &found, err);
	int rc = LORE_OK;
	guint i;

	if (!rows) {
		rc = LORE_EUSAGE;
		goto out;
	}
	/* a message the folder lacks may still be joined to some of it by
	 * what a later source (the archive) brings: only the whole folder
	 * gives what the plain scan gives then */
	if (!found && !thread_get(t, msgid)) {
		rc = MDINDEX_PLAIN;
		goto out;
	}
	g_ptr_array_sort(rows, mdindex_row_place);
	if (!read_rows(x, rows, &g, err)) {
		rc = g.gone ? MDINDEX_PLAIN : LORE_EUSAGE;
		goto out;
	}
	for (i = 0; i < g.msgs->len; i++) {
		struct message *m = g.msgs->pdata[i];

		g.msgs->pdata[i] = NULL;
		if (thread_add(t, m, origin))
			(*added)++;
	}
	/* the plain scan warns about every message too large to read */
	t->too_big +=
	    query_int(x, "SELECT count(*) FROM msg WHERE big = 1", NULL, 0);
out:
	if (rows)
		g_ptr_array_free(rows, TRUE);
	g_ptr_array_free(g.msgs, TRUE);
	return rc;
}

static gboolean
is_maildir(const char *path)
{
	g_autofree char *cur = g_build_filename(path, "cur", NULL);
	g_autofree char *new = g_build_filename(path, "new", NULL);

	return g_file_test(cur, G_FILE_TEST_IS_DIR) ||
	       g_file_test(new, G_FILE_TEST_IS_DIR);
}

/* Is the mailbox @real below lore-am.index-min-messages? */
static gboolean
small(const char *real, gboolean maildir)
{
	static const char *const subs[] = {"cur", "new"};
	guint64 n = 0;
	guint i;

	if (!maildir) {
		GStatBuf st;

		return g_stat(real, &st) ||
		       (guint64)st.st_size / 2048 < min_messages;
	}
	for (i = 0; i < G_N_ELEMENTS(subs) && n < min_messages; i++) {
		g_autofree char *d = g_build_filename(real, subs[i], NULL);
		GDir *dir = g_dir_open(d, 0, NULL);

		while (dir && n < min_messages && g_dir_read_name(dir))
			n++;
		if (dir)
			g_dir_close(dir);
	}
	return n < min_messages;
}

int
mdindex_gather(const char *path, const char *msgid, struct thread *t,
	       const char *origin, guint *added)
{
	struct mdindex x = {.db = NULL};
	g_autofree char *real = NULL;
	g_autofree char *file = NULL;
	GError *err = NULL;
	int rc;

	*added = 0;
	if (!msgid || !strcmp(path, "-") || g_str_has_suffix(path, ".gz") ||
	    !enabled)
		return MDINDEX_PLAIN;
	/* what cannot be read is the plain scan's to report */
	real = realpath(path, NULL);
	if (!real)
		return MDINDEX_PLAIN;
	x.path = real;
	x.maildir = g_file_test(real, G_FILE_TEST_IS_DIR);
	if (x.maildir ? !is_maildir(real)
		      : !g_file_test(real, G_FILE_TEST_IS_REGULAR))
		return MDINDEX_PLAIN;
	if (small(real, x.maildir))
		return MDINDEX_PLAIN;
	file = index_file(real);
	if (open_db(&x, file, &err) && mdindex_update(&x, &err))
		rc = gather(&x, msgid, t, origin, added, &err);
	else
		rc = LORE_EUSAGE;
	sqlite3_close_v2(x.db);
	if (rc == LORE_OK || rc == MDINDEX_PLAIN)
		return rc;
	{
		int code = err ? err->code & 0xff : 0;
		gboolean bad =
		    err && (err->code == MDINDEX_EFOREIGN ||
			    code == SQLITE_CORRUPT || code == SQLITE_NOTADB);
		g_autofree char *p = lore_term_safe(path, -1);
		g_autofree char *why =
		    lore_term_safe(err ? err->message : "unknown error", -1);

		if (bad)
			remove_index(file);
		lore_info("NOTE: the index of '%s' was not used (%s); the "
			  "whole mailbox was read%s",
			  p, why,
			  bad ? " and the index will be built again" : "");
	}
	g_clear_error(&err);
	return MDINDEX_PLAIN;
}
