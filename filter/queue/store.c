/*
 * store.c - what a run saw of a series (record.c), into the queue in one
 * transaction: the series found (by change-id, a known message, author
 * and title) or made, each revision's row, each patch's patch-id, the
 * series and revision of every message. Statements are prepared once a
 * run (queue_stmt()), and only what changed is written: a mail arriving
 * in a thread of thousands writes its own row and its revision's.
 */
#include "queue/queue-int.h"
#include "core/util.h"
#include "mail/message.h"
#include "series/series.h"
#include "thread/thread.h"
#include "trailers/followup.h"

#include <stdio.h>
#include <string.h>

static const char by_msg_sql[] = "SELECT series FROM messages WHERE msgid = ?1";

/* *@id: the first column of @sql's row for @text, 0 when there is none
 * (or no @text); FALSE with @err when the table cannot be read. */
static gboolean
lookup(struct queue *q, const char *sql, const char *text, gint64 *id,
       GError **err)
{
	*id = 0;
	return !text || !*text || queue_int(q, sql, text, id, err);
}

/* *@id: a series of the same author and title whose revisions are all
 * older than @rev (a newer one sent as a new thread), or 0. */
static gboolean
by_title(struct queue *q, struct seen_series *ss, int rev, gint64 *id,
	 GError **err)
{
	sqlite3_stmt *st = queue_stmt(
	    q,
	    "SELECT s.id FROM series s WHERE s.author = ?1 AND s.title = ?2 "
	    "AND (SELECT max(revision) FROM revisions r WHERE r.series = "
	    "s.id) <= ?3 ORDER BY s.last_seen DESC LIMIT 1",
	    err);
	gboolean ok;
	int rc;

	*id = 0;
	if (!st)
		return FALSE;
	sqlite3_bind_text(st, 1, ss->author, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, ss->title, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 3, rev);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(st, 0);
	ok = queue_check(q, rc, err);
	sqlite3_reset(st);
	return ok;
}

/* *@id: the series @s belongs to, by change-id, by a message already
 * known, by author and title; 0 when it is new. FALSE with @err when the
 * store cannot be read: a damaged table is not a new series. */
static gboolean
find_series(struct queue *q, struct series_set *s, struct seen_series *ss,
	    gint64 *id, GError **err)
{
	gboolean ok;
	guint i;

	ok = lookup(q, "SELECT id FROM series WHERE change_id = ?1",
		    ss->change_id, id, err);
	for (i = 0; ok && !*id && i < ss->revs->len; i++)
		ok = lookup(
		    q, by_msg_sql,
		    g_array_index(ss->revs, struct rev_info, i).root->msgid, id,
		    err);
	for (i = 0; ok && !*id && i < s->all->len; i++)
		ok = lookup(q, by_msg_sql,
			    ((struct spatch *)s->all->pdata[i])->msg->msgid, id,
			    err);
	if (ok && !*id && *ss->title && *ss->author)
		ok = by_title(
		    q, ss, g_array_index(ss->revs, struct rev_info, 0).revision,
		    id, err);
	return ok;
}

static gint64
new_series(struct queue *q, struct seen_series *ss, gint64 now, GError **err)
{
	const char *root =
	    g_array_index(ss->revs, struct rev_info, 0).root->msgid;
	g_autofree char *key =
	    ss->change_id ? g_strconcat("change-id:", ss->change_id, NULL)
			  : g_strconcat("msgid:", root, NULL);
	sqlite3_stmt *st = queue_stmt(
	    q,
	    "INSERT OR IGNORE INTO series(key, change_id, author, title, "
	    "subject, first_seen, last_seen) VALUES(?1, ?2, ?3, ?4, ?5, ?6, "
	    "?6)",
	    err);
	gint64 id = 0;
	gboolean ok;

	if (!st)
		return 0;
	sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, ss->change_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, ss->author, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, ss->title, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, ss->subject, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 6, now);
	ok = queue_check(q, sqlite3_step(st), err);
	sqlite3_reset(st);
	if (ok)
		lookup(q, "SELECT id FROM series WHERE key = ?1", key, &id,
		       err);
	return id;
}

/* The larger count of each patch, of what was stored and what is seen:
 * a run that sees fewer replies (another mailbox) takes nothing away. */
static char *
merge_reviews(const char *old, const char *now)
{
	g_auto(GStrv) a = g_strsplit(old, " ", -1);
	g_auto(GStrv) b = g_strsplit(now, " ", -1);
	GString *out;
	guint i;

	if (g_strv_length(a) != g_strv_length(b))
		return g_strdup(now);
	out = g_string_new(NULL);
	for (i = 0; b[i]; i++) {
		unsigned r1 = 0, a1 = 0, t1 = 0, r2 = 0, a2 = 0, t2 = 0;

		sscanf(a[i], "%u/%u/%u", &r1, &a1, &t1);
		sscanf(b[i], "%u/%u/%u", &r2, &a2, &t2);
		g_string_append_printf(out, "%s%s", i ? " " : "",
				       r1 + a1 + t1 > r2 + a2 + t2 ? a[i]
								   : b[i]);
	}
	return g_string_free(out, FALSE);
}

/* A revision's row: present, reviews, first_seen, root, expected, files */
static const char rev_sql[] =
    "SELECT present, reviews, first_seen, root, expected, files FROM "
    "revisions WHERE series = ?1 AND revision = ?2";

static gboolean
store_rev(struct queue *q, gint64 id, struct rev_info *ri, gint64 now,
	  GError **err)
{
	sqlite3_stmt *st = queue_stmt(q, rev_sql, err);
	g_autofree char *reviews = NULL;
	int present = ri->present;
	gint64 first = now;
	gboolean ok, same = FALSE;
	int rc;

	if (!st)
		return FALSE;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int(st, 2, ri->revision);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		present =
		    MIN(MAX(present, sqlite3_column_int(st, 0)), ri->expected);
		reviews = merge_reviews(queue_col(st, 1), ri->reviews->str);
		first = sqlite3_column_int64(st, 2);
		/* a mail that changes nothing of its revision writes nothing */
		same = present == sqlite3_column_int(st, 0) &&
		       !strcmp(reviews, queue_col(st, 1)) &&
		       !strcmp(ri->root->msgid, queue_col(st, 3)) &&
		       ri->expected == sqlite3_column_int(st, 4) &&
		       !strcmp(ri->files->str, queue_col(st, 5));
	}
	ok = queue_check(q, rc, err);
	sqlite3_reset(st);
	if (!ok)
		return FALSE;
	present = MIN(present, ri->expected);
	ri->kept_present = present;
	ri->kept_reviews = g_strdup(reviews ? reviews : ri->reviews->str);
	if (same)
		return TRUE;
	st = queue_stmt(q,
			"INSERT OR REPLACE INTO revisions VALUES(?1, ?2, ?3, "
			"?4, ?5, ?6, ?7, ?8)",
			err);
	if (!st)
		return FALSE;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int(st, 2, ri->revision);
	sqlite3_bind_text(st, 3, ri->root->msgid, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 4, ri->expected);
	sqlite3_bind_int(st, 5, present);
	sqlite3_bind_text(st, 6, reviews ? reviews : ri->reviews->str, -1,
			  SQLITE_STATIC);
	sqlite3_bind_text(st, 7, ri->files->str, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 8, first);
	ok = queue_check(q, sqlite3_step(st), err);
	sqlite3_reset(st);
	return ok;
}

/* The patch-id of each patch of @ri not stored yet: computed (by the
 * trailers stage's @f, which keeps what it computed) only for those. */
static gboolean
store_patchids(struct queue *q, struct followups *f, gint64 id,
	       struct rev_info *ri, GError **err)
{
	g_autoptr(GHashTable) have = g_hash_table_new(NULL, NULL);
	sqlite3_stmt *st = queue_stmt(q,
				      "SELECT number FROM patches WHERE "
				      "series = ?1 AND revision = ?2",
				      err);
	gboolean ok;
	guint i;
	int rc;

	if (!st)
		return FALSE;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int(st, 2, ri->revision);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		g_hash_table_add(have,
				 GINT_TO_POINTER(sqlite3_column_int(st, 0)));
	ok = queue_check(q, rc, err);
	sqlite3_reset(st);
	/* prepared when a patch needs it: a reply's run has none to write */
	st = NULL;
	for (i = 1; ok && i < ri->ser->slots->len; i++) {
		struct spatch *p =
		    g_array_index(ri->ser->slots, struct series_entry, i).p;
		const char *pid;

		if (!p || !p->has_diff ||
		    g_hash_table_contains(have, GUINT_TO_POINTER(i)) ||
		    !(pid = followup_patch_id(f, p)))
			continue;
		if (!st && !(st = queue_stmt(q,
					     "INSERT OR REPLACE INTO patches "
					     "VALUES(?1, ?2, ?3, ?4)",
					     err)))
			return FALSE;
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_int(st, 2, ri->revision);
		sqlite3_bind_int(st, 3, (int)i);
		sqlite3_bind_text(st, 4, pid, -1, SQLITE_STATIC);
		ok = queue_check(q, sqlite3_step(st), err);
		sqlite3_reset(st);
	}
	return ok;
}

/* A reply's revision is the one of the patch it answers. */
static int
msg_revision(struct series_set *s, struct spatch *p)
{
	struct message *m = p->msg;
	int depth;

	for (depth = 0; p && p->reply && depth < 64; depth++) {
		m = thread_parent(s->thread, m);
		p = m ? series_spatch_of(s, m) : NULL;
	}
	return p ? p->revision : 0;
}

/* The messages of series @id already stored, with their revision; NULL
 * with @err. */
static GHashTable *
stored_messages(struct queue *q, gint64 id, GError **err)
{
	sqlite3_stmt *st = queue_stmt(
	    q, "SELECT msgid, revision FROM messages WHERE series = ?1", err);
	GHashTable *h;
	int rc;

	if (!st)
		return NULL;
	h = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	sqlite3_bind_int64(st, 1, id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		g_hash_table_insert(h, g_strdup(queue_col(st, 0)),
				    GINT_TO_POINTER(sqlite3_column_int(st, 1)));
	if (!queue_check(q, rc, err))
		g_clear_pointer(&h, g_hash_table_destroy);
	sqlite3_reset(st);
	return h;
}

/* Every message's series and revision: only those not stored so (a new
 * mail, a message another series held) are written. *@target_rev: the
 * revision of @target, 0 when it is in none. */
static gboolean
store_messages(struct queue *q, struct series_set *s, gint64 id,
	       const char *target, int *target_rev, GError **err)
{
	g_autoptr(GHashTable) have = stored_messages(q, id, err);
	sqlite3_stmt *st = NULL; /* prepared when a message needs it */
	gboolean ok = have != NULL;
	guint i;

	for (i = 0; ok && i < s->all->len; i++) {
		struct spatch *p = s->all->pdata[i];
		int rev = msg_revision(s, p);

		if (!p->msg->msgid || !rev)
			continue;
		if (target && !strcmp(p->msg->msgid, target))
			*target_rev = rev;
		if (GPOINTER_TO_INT(g_hash_table_lookup(have, p->msg->msgid)) ==
		    rev)
			continue;
		if (!st && !(st = queue_stmt(q,
					     "INSERT OR REPLACE INTO messages "
					     "VALUES(?1, ?2, ?3)",
					     err)))
			return FALSE;
		sqlite3_bind_text(st, 1, p->msg->msgid, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 2, id);
		sqlite3_bind_int(st, 3, rev);
		ok = queue_check(q, sqlite3_step(st), err);
		sqlite3_reset(st);
	}
	return ok;
}

/* What the state of a revision needs of its series, as now stored. */
struct marks {
	int latest, applied, thanked, rejected;
};

static gboolean
read_marks(struct queue *q, gint64 id, struct marks *m, GError **err)
{
	sqlite3_stmt *st =
	    queue_stmt(q,
		       "SELECT applied, thanked, rejected, (SELECT "
		       "max(revision) FROM revisions WHERE series = ?1) FROM "
		       "series WHERE id = ?1",
		       err);
	int rc;

	memset(m, 0, sizeof(*m));
	if (!st)
		return FALSE;
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		m->applied = sqlite3_column_int(st, 0);
		m->thanked = sqlite3_column_int(st, 1);
		m->rejected = sqlite3_column_int(st, 2);
		m->latest = sqlite3_column_int(st, 3);
	}
	sqlite3_reset(st);
	return queue_check(q, rc, err);
}

/* "R/A/T R/A/T ..." as the header's "N,N,...": each patch's total */
static char *
review_totals(const char *reviews)
{
	g_auto(GStrv) v = g_strsplit(reviews, " ", -1);
	GString *r = g_string_new(NULL);
	guint i;

	for (i = 0; v[i] && *v[i]; i++) {
		unsigned x = 0, y = 0, z = 0;

		sscanf(v[i], "%u/%u/%u", &x, &y, &z);
		g_string_append_printf(r, "%s%u", i ? "," : "", x + y + z);
	}
	return g_string_free(r, FALSE);
}

/* The state of revision @rev of series @id, as now stored: what this run
 * stored of it (store_rev()), else its row (a revision the run saw no
 * patch of). */
static void
fill_seen(struct queue *q, gint64 id, struct seen_series *ss,
	  const struct marks *m, int rev, struct queue_seen *seen)
{
	g_autofree char *row_reviews = NULL;
	const char *reviews = NULL;
	int expected = 0, present = 0, patches, total;
	guint i;

	for (i = 0; i < ss->revs->len && !reviews; i++) {
		struct rev_info *ri =
		    &g_array_index(ss->revs, struct rev_info, i);

		if (ri->revision != rev || !ri->kept_reviews)
			continue;
		expected = ri->expected;
		present = ri->kept_present;
		reviews = ri->kept_reviews;
	}
	if (!reviews) {
		sqlite3_stmt *st = queue_stmt(q, rev_sql, NULL);

		if (!st)
			return;
		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_int(st, 2, rev);
		if (sqlite3_step(st) == SQLITE_ROW) {
			present = sqlite3_column_int(st, 0);
			reviews = row_reviews = g_strdup(queue_col(st, 1));
			expected = sqlite3_column_int(st, 4);
		}
		sqlite3_reset(st);
		if (!reviews)
			return;
	}
	queue_count_reviews(reviews, &patches, &total);
	seen->known = TRUE;
	seen->revision = rev;
	seen->state = queue_rev_state(rev, m->latest, m->applied, m->thanked,
				      m->rejected, expected, present, patches);
	seen->reviews = review_totals(reviews);
}

/* The series seen now; its subject the latest revision's, when that is
 * one this run saw (@latest: the latest stored). */
static gboolean
touch_series(struct queue *q, gint64 id, struct seen_series *ss, gint64 now,
	     int latest, GError **err)
{
	sqlite3_stmt *st = queue_stmt(
	    q,
	    "UPDATE series SET last_seen = ?2, change_id = coalesce(change_id, "
	    "?3), subject = coalesce(?4, subject) WHERE id = ?1",
	    err);
	gboolean ok;

	if (!st)
		return FALSE;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int64(st, 2, now);
	sqlite3_bind_text(st, 3, ss->change_id, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, ss->latest >= latest ? ss->subject : NULL, -1,
			  SQLITE_STATIC);
	ok = queue_check(q, sqlite3_step(st), err);
	sqlite3_reset(st);
	return ok;
}

gboolean
queue_store(struct queue *q, struct series_set *s, struct followups *f,
	    struct seen_series *ss, const char *target, struct queue_seen *seen,
	    GError **err)
{
	gint64 now = g_get_real_time() / G_USEC_PER_SEC, id;
	struct marks m;
	int target_rev = 0;
	gboolean ok;
	guint i;

	if (!queue_begin(q, err))
		return FALSE;
	ok = find_series(q, s, ss, &id, err) &&
	     (id || (id = new_series(q, ss, now, err)));
	for (i = 0; ok && i < ss->revs->len; i++) {
		struct rev_info *ri =
		    &g_array_index(ss->revs, struct rev_info, i);

		ok = store_rev(q, id, ri, now, err) &&
		     store_patchids(q, f, id, ri, err);
	}
	ok = ok && store_messages(q, s, id, target, &target_rev, err);
	ok = ok && read_marks(q, id, &m, err);
	ok = ok && touch_series(q, id, ss, now, m.latest, err);
	if (ok && seen && target_rev)
		fill_seen(q, id, ss, &m, target_rev, seen);
	return queue_end(q, ok, err);
}
