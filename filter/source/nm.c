/*
 * nm.c - the notmuch source: libnotmuch (notmuch.h, libnotmuch 5.4 or
 * later for notmuch_database_open_with_config) opened read-only, the
 * thread found with a "thread:ID" query, each message taken from the
 * first of its files that reads and parses (notmuch indexes .gz files too).
 *
 * Xapian lets a reader open the database while a writer (`notmuch new`)
 * holds the write lock, and shows it the last committed state: a running
 * `notmuch new` never blocks us. What a writer can do is discard the
 * revision being read (DatabaseModifiedError) or leave the database
 * unreadable for a moment (created, compacted, upgraded). libnotmuch 0.37
 * reports these as NOTMUCH_STATUS_XAPIAN_EXCEPTION, as PATH_ERROR when
 * .notmuch/xapian is missing or not (yet) a database, or as a NULL from a
 * getter; such a read is thrown away and retried from a fresh open until
 * the retry time runs out.
 */
#include "source/nm.h"
#include "mail/mbox.h"
#include "mail/message.h"
#include "core/util.h"

#include <string.h>

#ifdef LORE_NO_NOTMUCH

gboolean
nm_compiled_in(void)
{
	return FALSE;
}

static int
nm_fetch(struct source *src, const char *msgid, struct thread *t, GError **err)
{
	g_set_error(
	    err, SOURCE_ERROR, SOURCE_ERROR_UNAVAILABLE,
	    "notmuch support is not compiled in (built with NO_NOTMUCH=1)");
	return LORE_EUSAGE;
}

struct source *
source_notmuch_new(guint retry_ms)
{
	struct source *s = g_new0(struct source, 1);

	s->name = "notmuch";
	s->fetch = nm_fetch;
	s->label = g_strdup("notmuch");
	return s;
}

const char *
nm_database_path(struct source *src)
{
	return NULL;
}

#else /* with libnotmuch */

#include <notmuch.h>

#include "source/nmlib.h" /* the notmuch_*() calls below go through it */

#if !LIBNOTMUCH_CHECK_VERSION(5, 4, 0)
#error                                                                         \
    "libnotmuch 5.4 (notmuch 0.32) or later is needed; build with NO_NOTMUCH=1"
#endif

struct nm {
	notmuch_database_t *db;
	char *path; /* the database's mail root, once opened */
	guint retry_ms;
	guint unreadable; /* messages none of whose files could be read */
	guint64 budget;	  /* the thread's memory bound (0: none)... */
	guint64 spent;	  /* ... and what counts against it so far */
	guint counted;	  /* messages that it counts */
};

enum { TRY_OK, TRY_AGAIN, TRY_FAIL };

gboolean
nm_compiled_in(void)
{
	return TRUE;
}

/* libnotmuch's messages read "Error: Something.\n": keep "something". */
static char *
clean_msg(const char *m, const char *fallback)
{
	char *s;

	if (!m || !*m)
		return g_strdup(fallback);
	if (g_str_has_prefix(m, "Error: "))
		m += 7;
	s = g_strstrip(g_strdup(m));
	if (g_str_has_suffix(s, "."))
		s[strlen(s) - 1] = '\0';
	return s;
}

static void
nm_close(struct nm *p)
{
	if (p->db)
		notmuch_database_destroy(p->db);
	p->db = NULL;
}

static const char no_config[] =
    "no notmuch configuration found (NOTMUCH_CONFIG, ~/.notmuch-config)";

/* Open read-only, with notmuch's own rules for config and profile. */
static int
nm_open(struct nm *p, GError **err)
{
	notmuch_status_t st;
	char *msg = NULL;
	g_autofree char *why = NULL;
	g_autoptr(GError) e = NULL;

	if (p->db)
		return TRY_OK;
	/* not set up here: the library would say so (NO_CONFIG, below) */
	if (!nmlib_configured()) {
		g_set_error_literal(err, SOURCE_ERROR, SOURCE_ERROR_UNAVAILABLE,
				    no_config);
		return TRY_FAIL;
	}
	if (!dynlib_load(&nmlib.dl, &e)) {
		/* no library: notmuch is not set up, as without a database */
		g_set_error_literal(err, SOURCE_ERROR, SOURCE_ERROR_UNAVAILABLE,
				    e->message);
		return TRY_FAIL;
	}
	st = notmuch_database_open_with_config(
	    NULL, NOTMUCH_DATABASE_MODE_READ_ONLY, NULL, NULL, &p->db, &msg);
	why = clean_msg(msg, notmuch_status_to_string(st));
	free(msg);
	switch (st) {
	case NOTMUCH_STATUS_SUCCESS:
		g_free(p->path);
		p->path = g_strdup(notmuch_database_get_path(p->db));
		return TRY_OK;
	case NOTMUCH_STATUS_XAPIAN_EXCEPTION:
	case NOTMUCH_STATUS_PATH_ERROR:
		/* PATH_ERROR: .notmuch is there but its Xapian folder is not
		 * (yet, or for the moment): being created or compacted */
		g_set_error(err, SOURCE_ERROR, SOURCE_ERROR_BUSY,
			    "cannot read the notmuch database: %s", why);
		return TRY_AGAIN;
	case NOTMUCH_STATUS_NO_CONFIG:
		g_set_error_literal(err, SOURCE_ERROR, SOURCE_ERROR_UNAVAILABLE,
				    no_config);
		return TRY_FAIL;
	case NOTMUCH_STATUS_NO_DATABASE:
		g_set_error(err, SOURCE_ERROR, SOURCE_ERROR_UNAVAILABLE,
			    "no notmuch database configured ([database] path)");
		return TRY_FAIL;
	default:
		g_set_error(err, SOURCE_ERROR, SOURCE_ERROR_UNAVAILABLE,
			    "cannot open the notmuch database: %s", why);
		return TRY_FAIL;
	}
}

static int
busy(GError **err, const char *what, notmuch_database_t *db)
{
	g_autofree char *why = clean_msg(
	    db ? notmuch_database_status_string(db) : NULL, "Xapian exception");

	g_set_error(err, SOURCE_ERROR, SOURCE_ERROR_BUSY, "%s: %s", what, why);
	return TRY_AGAIN;
}

/* The first of @m's files that reads and parses as mail, or NULL. */
static struct message *
read_message(notmuch_message_t *m)
{
	notmuch_filenames_t *fns = notmuch_message_get_filenames(m);
	struct message *msg = NULL;

	for (; fns && !msg && notmuch_filenames_valid(fns);
	     notmuch_filenames_move_to_next(fns)) {
		GBytes *b = mbox_slurp(notmuch_filenames_get(fns),
				       LORE_MAX_MESSAGE, NULL);
		gsize n;
		const char *d;

		if (!b)
			continue; /* moved or removed since indexed */
		d = g_bytes_get_data(b, &n);
		msg = message_parse(d, n, NULL);
		if (msg && !msg->msgid) {
			message_free(msg);
			msg = NULL;
		}
		g_bytes_unref(b);
	}
	if (fns)
		notmuch_filenames_destroy(fns);
	return msg;
}

/* Note the thread of @id, when notmuch knows the id (ghosts included). */
static int
add_thread_of(struct nm *p, const char *id, GHashTable *threads,
	      gboolean *found, GError **err)
{
	notmuch_message_t *m = NULL;
	const char *tid;

	if (notmuch_database_find_message(p->db, id, &m))
		return busy(err, "cannot look up a message in notmuch", p->db);
	if (!m)
		return TRY_OK;
	tid = notmuch_message_get_thread_id(m);
	if (!tid) {
		notmuch_message_destroy(m);
		return busy(err, "cannot read a thread id from notmuch", p->db);
	}
	g_hash_table_add(threads, g_strdup(tid));
	*found = TRUE;
	notmuch_message_destroy(m);
	return TRY_OK;
}

/* The messages notmuch's query @q finds, oldest first, into @out. */
static int
read_query(struct nm *p, const char *q, GPtrArray *out, GError **err)
{
	notmuch_query_t *query = notmuch_query_create(p->db, q);
	notmuch_messages_t *ms = NULL;
	int rc = TRY_OK;

	if (!query)
		return busy(err, "cannot query notmuch", p->db);
	notmuch_query_set_sort(query, NOTMUCH_SORT_OLDEST_FIRST);
	if (notmuch_query_search_messages(query, &ms) || !ms) {
		rc = busy(err, "cannot query notmuch", p->db);
		goto out;
	}
	for (; notmuch_messages_valid(ms); notmuch_messages_move_to_next(ms)) {
		notmuch_message_t *m = notmuch_messages_get(ms);
		struct message *msg;

		if (!m) {
			rc = busy(err, "cannot read a message from notmuch",
				  p->db);
			break;
		}
		msg = read_message(m);
		if (msg) {
			g_ptr_array_add(out, msg);
			p->spent += msg->len + THREAD_MSG_COST;
			p->counted++;
		} else {
			p->unreadable++;
		}
		notmuch_message_destroy(m);
		/* a thread of millions of messages stops at the bound */
		if (p->budget && p->spent > p->budget)
			break;
	}
out:
	notmuch_query_destroy(query);
	return rc;
}

/*
 * One attempt: the messages of every thread that holds @msgid (or, when
 * notmuch does not know it, the ids the copy in @have replies to).
 */
static int
read_threads(struct nm *p, const char *msgid, struct thread *have,
	     GPtrArray *out, GError **err)
{
	GHashTable *threads =
	    g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	struct message *known = thread_get(have, msgid);
	gboolean found = FALSE;
	GHashTableIter it;
	gpointer tid;
	int rc;
	guint i;

	rc = add_thread_of(p, msgid, threads, &found, err);
	if (rc == TRY_OK && !found && known) {
		if (known->in_reply_to)
			rc = add_thread_of(p, known->in_reply_to, threads,
					   &found, err);
		for (i = known->refs->len; rc == TRY_OK && i > 0; i--)
			rc = add_thread_of(p, known->refs->pdata[i - 1],
					   threads, &found, err);
	}
	g_hash_table_iter_init(&it, threads);
	while (rc == TRY_OK && !(p->budget && p->spent > p->budget) &&
	       g_hash_table_iter_next(&it, &tid, NULL)) {
		g_autofree char *q = g_strconcat("thread:", tid, NULL);

		rc = read_query(p, q, out, err);
	}
	g_hash_table_destroy(threads);
	return rc;
}

/* One attempt at what a fetch or a find asks (@what), into @out. */
typedef int (*nm_read_fn)(struct nm *p, const void *what, struct thread *have,
			  GPtrArray *out, GError **err);

static int
fetch_read(struct nm *p, const void *what, struct thread *have, GPtrArray *out,
	   GError **err)
{
	return read_threads(p, what, have, out, err);
}

/*
 * @fn tried until it reads, from a fresh open each time (a writer's
 * commit discards what a reader had), for the retry time; the messages
 * read are added to @t. @about names what was read, for a thread too big.
 */
static int
nm_read(struct source *src, nm_read_fn fn, const void *what, const char *about,
	struct thread *t, GError **err)
{
	struct nm *p = src->priv;
	gint64 deadline = g_get_monotonic_time() + (gint64)p->retry_ms * 1000;
	gulong pause = 20000;
	GPtrArray *got = NULL;
	GError *e = NULL;
	int rc;
	guint i;

	for (;;) {
		got = g_ptr_array_new_with_free_func(
		    (GDestroyNotify)message_free);
		p->unreadable = 0;
		p->budget = src->max_cost;
		p->spent = t->cost;
		p->counted = t->msgs->len;
		rc = nm_open(p, &e);
		if (rc == TRY_OK)
			rc = fn(p, what, t, got, &e);
		if (rc != TRY_AGAIN || g_get_monotonic_time() >= deadline)
			break;
		/* a fresh open sees the writer's latest commit */
		g_clear_error(&e);
		g_ptr_array_free(got, TRUE);
		nm_close(p);
		g_usleep(pause);
		pause = MIN(pause * 2, 250000);
	}
	if (rc != TRY_OK) {
		g_ptr_array_free(got, TRUE);
		if (rc == TRY_AGAIN) {
			g_set_error(
			    err, SOURCE_ERROR, SOURCE_ERROR_BUSY,
			    "the notmuch database stayed busy for %.1f s (%s); "
			    "try again when notmuch new is done",
			    p->retry_ms / 1000.0, e->message);
			g_error_free(e);
			return LORE_ETEMP;
		}
		g_propagate_error(err, e);
		return LORE_EUSAGE;
	}
	if (p->budget && p->spent > p->budget) {
		g_ptr_array_free(got, TRUE);
		return source_over_budget(src, about, p->counted, err);
	}
	for (i = 0; i < got->len; i++) {
		struct message *m = got->pdata[i];

		got->pdata[i] = NULL;
		if (thread_add(t, m, src->name))
			src->added++;
	}
	g_ptr_array_free(got, TRUE);
	if (p->unreadable)
		lore_err("warning: %u message%s of the notmuch thread could "
			 "not be read from any of %s files",
			 p->unreadable, p->unreadable == 1 ? "" : "s",
			 p->unreadable == 1 ? "its" : "their");
	return LORE_OK;
}

static int
nm_fetch(struct source *src, const char *msgid, struct thread *t, GError **err)
{
	if (!msgid) {
		g_set_error(err, SOURCE_ERROR, SOURCE_ERROR_FAILED,
			    "notmuch needs a Message-ID to look up");
		return LORE_EUSAGE;
	}
	return nm_read(src, fetch_read, msgid, "the notmuch thread", t, err);
}

static int
find_read(struct nm *p, const void *what, struct thread *have, GPtrArray *out,
	  GError **err)
{
	return read_query(p, what, out, err);
}

/* from:"ADDRESS" and date:@SINCE..@UNTIL: notmuch's own query words */
static int
nm_find(struct source *src, const struct source_query *q, struct thread *t,
	GError **err)
{
	GString *s = g_string_new("from:\"");
	g_autofree char *query = NULL;
	guint had = src->added;
	const char *c;
	int rc;

	for (c = q->from; *c; c++)
		g_string_append_c(s, *c == '"' ? ' ' : *c);
	g_string_append_printf(
	    s, "\" and date:@%" G_GINT64_FORMAT "..@%" G_GINT64_FORMAT,
	    q->since, q->until);
	query = g_string_free(s, FALSE);
	rc = nm_read(src, find_read, query, "notmuch's mail", t, err);
	if (rc == LORE_OK && src->added == had)
		return LORE_ENOTFOUND;
	return rc;
}

static void
nm_free(struct source *src)
{
	struct nm *p = src->priv;

	nm_close(p);
	g_free(p->path);
	g_free(p);
}

struct source *
source_notmuch_new(guint retry_ms)
{
	struct source *s = g_new0(struct source, 1);
	struct nm *p = g_new0(struct nm, 1);

	p->retry_ms = retry_ms;
	s->name = "notmuch";
	s->fetch = nm_fetch;
	s->find = nm_find;
	s->free = nm_free;
	s->label = g_strdup("notmuch");
	s->priv = p;
	return s;
}

const char *
nm_database_path(struct source *src)
{
	struct nm *p = src->priv;

	return p ? p->path : NULL;
}

#endif
