/*
 * mdindex.c - the index database of one mailbox (SQLite in WAL mode:
 * readers never wait, one writer at a time), and the thread read through
 * it: the messages the walk (mdwalk.c) found are read, checked against
 * their rows, and added in the plain scan's order (cur/ then new/ by
 * name, as mbox.c walks a maildir; an mbox by offset).
 */
#include "source/mdindex.h"
#include "source/cache.h"
#include "core/config.h"
#include "mail/mbox.h"
#include "source/mdindex-int.h"
#include "mail/message.h"
#include "source/source.h"
#include "core/util.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
/*
 * lore-am.index-wait: the seconds a run waits in all for another process
 * that holds the index (a run updating it for mail just delivered, eight
 * of them when procmail starts eight at once) before it reads the whole
 * folder instead.
 */
#define WAIT_DEFAULT 30
#define WAIT_MAX 3600
static guint64 wait_s = WAIT_DEFAULT;

void
mdindex_setup(struct config *cfg, gboolean off)
{
	const char *v = config_get(cfg, "index", NULL);

	enabled = !off && (!v || config_bool(v));
	v = config_get(cfg, "index-min-messages", NULL);
	if (!v || !g_ascii_string_to_unsigned(v, 10, 0, G_MAXUINT32,
					      &min_messages, NULL))
		min_messages = MIN_MESSAGES_DEFAULT;
	v = config_get(cfg, "index-wait", NULL);
	if (!v ||
	    !g_ascii_string_to_unsigned(v, 10, 0, WAIT_MAX, &wait_s, NULL))
		wait_s = WAIT_DEFAULT;
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
mdindex_spend(struct mdindex *x, gint64 len, gboolean row)
{
	x->spent += (guint64)MAX(len, 0) + THREAD_MSG_COST +
		    (row ? MDINDEX_ROW_COST : 0);
	x->counted++;
	if (x->budget && x->spent > x->budget)
		x->over = TRUE;
	return !x->over;
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
			/* the length is the index's word: a row longer than a
			 * message may be is one that lies */
			char *buf =
			    r->len >= 0 && (guint64)r->len <= LORE_MAX_MESSAGE
				? g_try_malloc(r->len + 1)
				: NULL;

			if (!buf || x->maildir ||
			    pread(fd, buf, r->len, r->off) != (ssize_t)r->len)
				g->bad = TRUE;
			else
				mbox_unquote(buf, r->len, parse_one, g);
			g_free(buf);
		} else if (!r->name) {
			/* every maildir row is written with its file's name */
			g->bad = TRUE;
		} else {
			g_autofree char *f = g_build_filename(
			    x->path, subs[r->dir & 1], r->name, NULL);
			GBytes *b = mbox_slurp_message(f);
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
		g_set_error(err, MDINDEX_ERROR, MDINDEX_EDAMAGED,
			    "disagrees with the mailbox");
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
read_thread(struct mdindex *x, const char *msgid, struct thread *t,
	    const char *origin, guint *added, GError **err)
{
	struct got g = {.msgs = g_ptr_array_new_with_free_func(
			    (GDestroyNotify)message_free)};
	gboolean found = FALSE;
	GPtrArray *rows;
	int rc = LORE_OK;
	guint i;

	/* what the thread holds already counts against the bound */
	x->spent = t->cost;
	x->counted = t->msgs->len;
	rows = mdindex_walk(x, msgid, t, &found, err);
	if (!rows) {
		rc = x->over ? MDINDEX_OVER : LORE_EUSAGE;
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
	t->too_big += mdindex_query_int(
	    x, "SELECT count(*) FROM msg WHERE big = 1", NULL, 0);
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

/* What is done about a failed use of the index. */
enum fault {
	FAULT_OTHER, /* noted; the index stays (a folder not writable...) */
	FAULT_BAD,   /* not ours, or damaged: built again */
	FAULT_FULL,  /* no room in the cache folder: removed, remembered */
	FAULT_IO,    /* it could not be written: removed */
	FAULT_BUSY,  /* held by another past the wait: noted, kept */
};

static enum fault
fault_of(const GError *err)
{
	int code;

	if (!err || err->domain != MDINDEX_ERROR)
		return FAULT_OTHER;
	if (err->code == MDINDEX_EFOREIGN || err->code == MDINDEX_EDAMAGED)
		return FAULT_BAD;
	code = err->code & 0xff;
	/* another process's lock, never a damage (SQLITE_PROTOCOL: SQLite's
	 * own retries of a WAL lock ran out) */
	if (code == SQLITE_BUSY || code == SQLITE_LOCKED ||
	    code == SQLITE_PROTOCOL)
		return FAULT_BUSY;
	/* SQLITE_ERROR: a statement of ours that does not fit the tables */
	if (code == SQLITE_CORRUPT || code == SQLITE_NOTADB ||
	    code == SQLITE_ERROR)
		return FAULT_BAD;
	if (code == SQLITE_FULL)
		return FAULT_FULL;
	return code == SQLITE_IOERR ? FAULT_IO : FAULT_OTHER;
}

/* What the index is, said after "the index of 'X' ". */
static char *
fault_text(const GError *err)
{
	g_autofree char *m = lore_term_safe(err->message, -1);

	if (err->code == MDINDEX_EFOREIGN || err->code == MDINDEX_EDAMAGED)
		return g_steal_pointer(&m);
	return g_strdup_printf("is damaged (%s)", m);
}

/* One try: open, bring up to date, read the thread; the database
 * closed. */
static int
try_once(struct mdindex *x, const char *file, const char *msgid,
	 struct thread *t, const char *origin, guint *added, GError **err)
{
	gboolean ok = FALSE;
	int rc;

	x->over = FALSE;
	if (mdindex_open(x, file, err) && mdindex_update(x, err)) {
		mdindex_checkpoint(x);
		/* the walk and the reading see one state of the index: a row
		 * another run writes meanwhile is under another id */
		ok = mdindex_exec(x, "BEGIN", err);
	}
	if (ok) {
		rc = read_thread(x, msgid, t, origin, added, err);
		sqlite3_exec(x->db, "COMMIT", NULL, NULL, NULL);
	} else {
		rc = LORE_EUSAGE;
	}
	/* no connection when libsqlite3 could not be loaded */
	if (x->db)
		sqlite3_close_v2(x->db);
	x->db = NULL;
	return rc;
}

/*
 * One attempt: a try answered "busy" before the deadline is made again
 * (SQLite answers some locks so without waiting: a read that would become
 * a write); nothing was added to the thread then.
 */
static int
attempt(struct mdindex *x, const char *file, const char *msgid,
	struct thread *t, const char *origin, guint *added, GError **err)
{
	int rc, n = 0, again = 0;

	/*
	 * A file another run removed and made again while this one had it
	 * open (it found it of another version or damaged, as this one may
	 * have) leaves this connection with the new file's -wal and -shm:
	 * SQLite answers I/O errors then. Nothing was read; open it again.
	 */
	while ((rc = try_once(x, file, msgid, t, origin, added, err)) ==
		   LORE_EUSAGE &&
	       ((fault_of(*err) == FAULT_BUSY && mdindex_wait(x, n++)) ||
		(fault_of(*err) != FAULT_BUSY && !*added && again++ < 3 &&
		 mdindex_replaced(x, file))))
		g_clear_error(err);
	return rc;
}

/*
 * The note on an index that could not be used (@err), once what its kind
 * asks was done: a full cache folder's unfinished index removed and the
 * room it wants remembered, one that could not be written removed. @lead
 * says what became of the index ("was not used").
 */
static void
fault_note(const struct mdindex *x, const char *file, const char *path,
	   const char *lead, const GError *err)
{
	g_autofree char *p = lore_term_safe(path, -1);
	g_autofree char *why = lore_term_safe(err->message, -1);
	g_autofree char *dir = g_path_get_dirname(file);
	g_autofree char *d = lore_term_safe(dir, -1);
	g_autofree char *size = NULL;
	guint64 freed;

	switch (fault_of(err)) {
	case FAULT_FULL:
		freed = mdindex_remove(x, file);
		mdindex_mark_full(file, MAX(2 * freed, (guint64)1 << 20));
		size = source_size_text(freed);
		lore_info("NOTE: the index of '%s' %s: the cache folder '%s' "
			  "is full (%s); the whole mailbox was read and the "
			  "unfinished index removed (%s freed): free some "
			  "space there, or set lore-am.index=false",
			  p, lead, d, why, size);
		return;
	case FAULT_BUSY:
		lore_info("NOTE: the index of '%s' was busy (another process "
			  "held it for %u s); the whole mailbox was read "
			  "(lore-am.index-wait says how long to wait)",
			  p, (guint)wait_s);
		return;
	case FAULT_IO:
		mdindex_remove(x, file);
		lore_info("NOTE: the index of '%s' %s (%s); the whole mailbox "
			  "was read and the index removed, to be built again "
			  "by a later run",
			  p, lead, why);
		return;
	default:
		if (fault_of(err) == FAULT_BAD)
			mdindex_remove(x, file);
		lore_info("NOTE: the index of '%s' %s (%s); the whole mailbox "
			  "was read (set lore-am.index=false to read it so "
			  "without this note)",
			  p, lead, why);
	}
}

/*
 * Open, update and gather through the index @file of @path, building it
 * again when it is not ours or damaged; every failure is noted (one line
 * that says what happened and what to do) and answers MDINDEX_PLAIN.
 */
static int
use_index(struct mdindex *x, const char *file, const char *path,
	  const char *msgid, struct thread *t, const char *origin, guint *added)
{
	GError *err = NULL;
	g_autofree char *lead = NULL;
	g_autofree char *p = lore_term_safe(path, -1);
	guint64 needs, avail;
	int rc;

	if (!mdindex_room(file, &needs, &avail)) {
		g_autofree char *dir = g_path_get_dirname(file);
		g_autofree char *d = lore_term_safe(dir, -1);
		g_autofree char *n = source_size_text(needs);
		g_autofree char *a = source_size_text(avail);

		lore_info("NOTE: the index of '%s' was not built: the cache "
			  "folder '%s' has %s free and it needs about %s; the "
			  "whole mailbox was read (free some space there, or "
			  "set lore-am.index=false)",
			  p, d, a, n);
		return MDINDEX_PLAIN;
	}
	/* one wait for the whole run, however many locks it takes */
	x->deadline = g_get_monotonic_time() + (gint64)wait_s * G_USEC_PER_SEC;
	rc = attempt(x, file, msgid, t, origin, added, &err);
	if (rc == LORE_EUSAGE && fault_of(err) == FAULT_BAD) {
		/* not ours, or damaged: the cache is ours to build it in */
		g_autofree char *why = fault_text(err);

		g_clear_error(&err);
		mdindex_remove(x, file);
		rc = attempt(x, file, msgid, t, origin, added, &err);
		if (rc != LORE_EUSAGE) {
			lore_info("NOTE: the index of '%s' %s: built again", p,
				  why);
			return rc;
		}
		lead = g_strdup_printf("%s, and could not be built again", why);
	}
	if (rc != LORE_EUSAGE)
		return rc;
	fault_note(x, file, path, lead ? lead : "was not used", err);
	g_clear_error(&err);
	return MDINDEX_PLAIN;
}

int
mdindex_gather(const char *path, const char *msgid, struct thread *t,
	       const char *origin, guint64 max_cost, guint *added)
{
	struct mdindex x = {.db = NULL, .budget = max_cost};
	g_autofree char *real = NULL;
	g_autofree char *file = NULL;
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
	file = mdindex_file(real);
	rc = use_index(&x, file, path, msgid, t, origin, added);
	if (rc == MDINDEX_OVER)
		*added = x.counted;
	return rc;
}
