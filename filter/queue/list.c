/*
 * list.c - the queue read back: the series seen lately with the state of
 * each revision, the series of one message, every message of a series
 * (the notmuch hook's tags), and the marks set by hand or by --apply.
 */
#include "queue/queue-int.h"
#include "core/util.h"

#include <string.h>

#define SERIES_COLS                                                            \
	"s.id, s.key, s.subject, s.author, s.first_seen, s.last_seen, "        \
	"s.applied, s.applied_note, s.thanked, s.rejected"

void
queue_series_free(struct queue_series *s)
{
	guint i;

	if (!s)
		return;
	for (i = 0; s->revs && i < s->revs->len; i++) {
		struct queue_rev *r = s->revs->pdata[i];

		g_free(r->root);
		g_free(r->reviews);
		g_free(r);
	}
	if (s->revs)
		g_ptr_array_free(s->revs, TRUE);
	g_free(s->key);
	g_free(s->subject);
	g_free(s->author);
	g_free(s->applied_note);
	g_free(s->files);
	g_free(s);
}

/* The revisions of @s, each with its state; the latest's counts. */
static gboolean
read_revs(struct queue *q, struct queue_series *s, int applied, int thanked,
	  int rejected, GError **err)
{
	sqlite3_stmt *st = q->revs;
	guint i;

	if (!st)
		st = q->revs = queue_prepare(
		    q,
		    "SELECT revision, expected, present, root, reviews, "
		    "files, first_seen FROM revisions WHERE series = ?1 "
		    "ORDER BY revision",
		    err);
	if (!st)
		return FALSE;
	s->revs = g_ptr_array_new();
	sqlite3_bind_int64(st, 1, s->id);
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct queue_rev *r = g_new0(struct queue_rev, 1);

		r->revision = sqlite3_column_int(st, 0);
		r->expected = sqlite3_column_int(st, 1);
		r->present = sqlite3_column_int(st, 2);
		r->root = g_strdup(queue_col(st, 3));
		r->reviews = g_strdup(queue_col(st, 4));
		r->first_seen = sqlite3_column_int64(st, 6);
		g_free(s->files);
		s->files = g_strdup(queue_col(st, 5));
		g_ptr_array_add(s->revs, r);
	}
	sqlite3_reset(st);
	for (i = 0; i < s->revs->len; i++) {
		struct queue_rev *r = s->revs->pdata[i];
		struct queue_rev *last = s->revs->pdata[s->revs->len - 1];
		int patches, total;

		queue_count_reviews(r->reviews, &patches, &total);
		r->state = queue_rev_state(r->revision, last->revision, applied,
					   thanked, rejected, r->expected,
					   r->present, patches);
		if (r != last)
			continue;
		s->state = r->state;
		s->revision = r->revision;
		s->expected = r->expected;
		s->present = r->present;
		s->reviewed_patches = patches;
		s->reviews = total;
	}
	return s->revs->len > 0;
}

/* The series of the row @st holds (SERIES_COLS), or NULL. */
static struct queue_series *
read_series(struct queue *q, sqlite3_stmt *st, GError **err)
{
	struct queue_series *s = g_new0(struct queue_series, 1);
	const char *note = (const char *)sqlite3_column_text(st, 7);

	s->id = sqlite3_column_int64(st, 0);
	s->key = g_strdup(queue_col(st, 1));
	s->subject = g_strdup(queue_col(st, 2));
	s->author = g_strdup(queue_col(st, 3));
	s->first_seen = sqlite3_column_int64(st, 4);
	s->last_seen = sqlite3_column_int64(st, 5);
	s->applied_note = note ? g_strdup(note) : NULL;
	if (read_revs(q, s, sqlite3_column_int(st, 6),
		      sqlite3_column_int(st, 8), sqlite3_column_int(st, 9),
		      err))
		return s;
	queue_series_free(s);
	return NULL;
}

GPtrArray *
queue_list(struct queue *q, gint64 since, GError **err)
{
	GPtrArray *out;
	sqlite3_stmt *st;
	GError *e = NULL;
	int rc = SQLITE_DONE;

	queue_b4_sent(q);
	st = queue_prepare(q,
			   "SELECT " SERIES_COLS " FROM series s WHERE "
			   "s.last_seen >= ?1 ORDER BY s.last_seen DESC, "
			   "s.id DESC",
			   err);
	if (!st)
		return NULL;
	out = g_ptr_array_new_with_free_func((GDestroyNotify)queue_series_free);
	sqlite3_bind_int64(st, 1, since);
	while (!e && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct queue_series *s = read_series(q, st, &e);

		if (s)
			g_ptr_array_add(out, s);
	}
	/* a damaged page ends the rows with an error, not an empty queue */
	if (!e)
		queue_check(q, rc, &e);
	sqlite3_finalize(st);
	if (e) {
		g_prefix_error(&e, "cannot read the queue file %s: ", q->path);
		g_propagate_error(err, e);
		g_ptr_array_free(out, TRUE);
		return NULL;
	}
	return out;
}

struct queue_series *
queue_find(struct queue *q, const char *msgid, GError **err)
{
	sqlite3_stmt *st;
	struct queue_series *s = NULL;

	queue_b4_sent(q);
	st = queue_prepare(q,
			   "SELECT " SERIES_COLS " FROM series s JOIN "
			   "messages m ON m.series = s.id WHERE m.msgid = ?1",
			   err);
	if (!st)
		return NULL;
	sqlite3_bind_text(st, 1, msgid, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		s = read_series(q, st, err);
	sqlite3_finalize(st);
	return s;
}

gboolean
queue_messages(struct queue *q, gint64 id, queue_msg_fn fn, gpointer data,
	       GError **err)
{
	sqlite3_stmt *st = queue_prepare(
	    q, "SELECT " SERIES_COLS " FROM series s WHERE s.id = ?1", err);
	struct queue_series *s = NULL;

	if (!st)
		return FALSE;
	sqlite3_bind_int64(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW)
		s = read_series(q, st, err);
	sqlite3_finalize(st);
	if (!s)
		return err == NULL || *err == NULL;
	st = queue_prepare(q,
			   "SELECT msgid, revision FROM messages WHERE series "
			   "= ?1 ORDER BY msgid",
			   err);
	if (st) {
		sqlite3_bind_int64(st, 1, id);
		while (sqlite3_step(st) == SQLITE_ROW) {
			int rev = sqlite3_column_int(st, 1);
			enum queue_state state = QUEUE_SUPERSEDED;
			guint i;

			for (i = 0; i < s->revs->len; i++) {
				struct queue_rev *r = s->revs->pdata[i];

				if (r->revision == rev)
					state = r->state;
			}
			fn(queue_col(st, 0), state, data);
		}
		sqlite3_finalize(st);
	}
	queue_series_free(s);
	return st != NULL;
}

/* The column a mark goes to, or NULL for "new" (clear them). */
static gboolean
mark_column(const char *state, const char **col)
{
	enum queue_state s;

	if (!queue_state_parse(state, &s))
		return FALSE;
	*col = s == QUEUE_APPLIED    ? "applied"
	       : s == QUEUE_THANKED  ? "thanked"
	       : s == QUEUE_REJECTED ? "rejected"
				     : NULL;
	return *col || s == QUEUE_NEW;
}

static gboolean
set_mark(struct queue *q, const char *msgid, const char *col, const char *note,
	 GError **err)
{
	g_autofree char *sql = NULL;
	sqlite3_stmt *st;
	gboolean ok;

	if (!col)
		sql =
		    g_strdup("UPDATE series SET applied = 0, thanked = 0, "
			     "rejected = 0, applied_note = NULL WHERE id = "
			     "(SELECT series FROM messages WHERE msgid = ?1)");
	else
		sql = g_strdup_printf(
		    "UPDATE series SET %s = (SELECT revision FROM messages "
		    "WHERE msgid = ?1)%s WHERE id = (SELECT series FROM "
		    "messages WHERE msgid = ?1)",
		    col,
		    !strcmp(col, "applied")
			? ", applied_note = coalesce(?2, applied_note)"
			: "");
	st = queue_prepare(q, sql, err);
	if (!st)
		return FALSE;
	sqlite3_bind_text(st, 1, msgid, -1, SQLITE_STATIC);
	if (col && !strcmp(col, "applied"))
		sqlite3_bind_text(st, 2, note, -1, SQLITE_STATIC);
	ok = queue_check(q, sqlite3_step(st), err);
	sqlite3_finalize(st);
	if (ok && !sqlite3_changes(q->db)) {
		g_autofree char *id = lore_term_safe(msgid, -1);

		g_set_error(err, LORE_ERROR, LORE_ENOTFOUND,
			    "<%s> is no message of a series the queue knows",
			    id);
		return FALSE;
	}
	return ok;
}

int
queue_mark_note(const char *msgid, const char *state, const char *note,
		GError **err)
{
	const char *col = NULL;
	struct queue *q;
	gboolean ok;

	if (!mark_column(state, &col)) {
		g_autofree char *s = lore_term_safe(state, -1);

		g_set_error(err, LORE_ERROR, LORE_EUSAGE,
			    "'%s' is not a state a series is marked with "
			    "(applied, thanked, rejected, or new to clear)",
			    s);
		return LORE_EUSAGE;
	}
	q = queue_open(err);
	if (!q)
		return LORE_EIO;
	/* a mark is the maintainer's word, which no later mail brings back:
	 * its commit syncs the WAL (FULL), where a run's record does not
	 * (queue_seen_only()) */
	ok = queue_exec(q, "PRAGMA synchronous = FULL", err) &&
	     queue_begin(q, err) &&
	     queue_end(q, set_mark(q, msgid, col, note, err), err);
	queue_close(q);
	if (ok)
		return LORE_OK;
	if (err && *err && (*err)->domain == LORE_ERROR)
		return (*err)->code;
	return LORE_EIO;
}

int
queue_mark(const char *msgid, const char *state, GError **err)
{
	return queue_mark_note(msgid, state, NULL, err);
}
