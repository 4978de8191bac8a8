/*
 * record.c - what a run saw of a series, into the queue: each revision's
 * patches present and the reviews per patch (the trailers stage's count:
 * a reply's trailers, an identical patch's of another revision, the cover
 * letter's, and the patch's own), the files it touches, and the series
 * and revision of every message, in one transaction.
 */
#include "queue/queue-int.h"
#include "core/util.h"
#include "mail/message.h"
#include "mail/subject.h"
#include "series/newer.h"
#include "trailers/followup.h"
#include "trailers/trailer.h"

#include <stdio.h>
#include <string.h>

/* --mine reads this many of a revision's files, no more */
#define FILES_MAX 500
#define PATH_MAX_LEN 1024

struct rev_info {
	int revision, expected, present;
	struct message *root; /* cover letter, else the first patch */
	GString *reviews;     /* "R/A/T" per patch */
	GString *files;	      /* "\n" joined, each once */
	int reviewed;	      /* patches with a review */
};

struct seen_series {
	GArray *revs; /* struct rev_info */
	char *change_id, *author, *title, *subject;
	int latest;
};

/* The review trailers of one patch, each counted once. */
static void
count_reviews(GPtrArray *list, int *r, int *a, int *t)
{
	g_autoptr(GPtrArray) seen = g_ptr_array_new();
	guint i;

	for (i = 0; i < list->len; i++) {
		struct trailer *tr = list->pdata[i];
		int *n = !strcmp(tr->lname, "reviewed-by") ? r
			 : !strcmp(tr->lname, "acked-by")  ? a
			 : !strcmp(tr->lname, "tested-by") ? t
							   : NULL;

		if (!n || trailer_in(seen, tr))
			continue;
		g_ptr_array_add(seen, tr);
		(*n)++;
	}
}

/* The patch's own trailers: its commit message, up to the "---" */
static GPtrArray *
own_trailers(struct message *m)
{
	const char *body = message_body(m);
	const char *cut = body ? strstr(body, "\n---\n") : NULL;
	g_autofree char *msg =
	    body ? g_strndup(body, cut ? (gsize)(cut - body) : strlen(body))
		 : NULL;
	GPtrArray *t = trailer_array_new();

	if (msg)
		trailer_find(msg, FALSE, t, NULL);
	return t;
}

/* "diff --git a/X b/Y": Y, each file once, within bounds */
static void
add_files(GString *files, GHashTable *seen, struct message *m)
{
	const char *body = message_body(m);
	size_t pos = 0, len = body ? strlen(body) : 0, ll;
	const char *l;

	while (lore_next_line(body, len, &pos, &l, &ll)) {
		const char *b;
		char *f;

		if (g_hash_table_size(seen) >= FILES_MAX)
			return;
		if (ll > PATH_MAX_LEN ||
		    !lore_has_prefix_ci(l, ll, "diff --git "))
			continue;
		b = g_strstr_len(l, (gssize)ll, " b/");
		if (!b)
			continue;
		f = g_strndup(b + 3, ll - (size_t)(b + 3 - l));
		if (!*f || strchr(f, '\n') || g_hash_table_contains(seen, f)) {
			g_free(f);
			continue;
		}
		g_hash_table_add(seen, f);
		g_string_append_printf(files, "%s%s", files->len ? "\n" : "",
				       f);
	}
}

static void
patch_info(struct followups *f, struct series *ser, struct series_entry *e,
	   struct rev_info *ri, GHashTable *files)
{
	int r = 0, a = 0, t = 0;

	if (e->p) {
		g_autoptr(GPtrArray) fu = followup_for(f, ser, e);
		g_autoptr(GPtrArray) own = own_trailers(e->p->msg);

		g_ptr_array_extend(fu, own, NULL, NULL);
		count_reviews(fu, &r, &a, &t);
		add_files(ri->files, files, e->p->msg);
		ri->present++;
		if (!ri->root)
			ri->root = e->p->msg;
	}
	if (r + a + t)
		ri->reviewed++;
	g_string_append_printf(ri->reviews, "%s%d/%d/%d",
			       ri->reviews->len ? " " : "", r, a, t);
}

static void
rev_info(struct followups *f, struct series *ser, struct rev_info *ri)
{
	struct spatch *cov = series_cover(ser);
	g_autoptr(GHashTable) files =
	    g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	guint i;

	ri->revision = ser->revision;
	ri->expected = ser->expected;
	ri->reviews = g_string_new(NULL);
	ri->files = g_string_new(NULL);
	ri->root = cov ? cov->msg : NULL;
	for (i = 1; i < ser->slots->len; i++)
		patch_info(f, ser,
			   &g_array_index(ser->slots, struct series_entry, i),
			   ri, files);
}

static void
seen_clear(struct seen_series *ss)
{
	guint i;

	for (i = 0; ss->revs && i < ss->revs->len; i++) {
		struct rev_info *ri =
		    &g_array_index(ss->revs, struct rev_info, i);

		g_string_free(ri->reviews, TRUE);
		g_string_free(ri->files, TRUE);
	}
	if (ss->revs)
		g_array_unref(ss->revs);
	g_free(ss->change_id);
	g_free(ss->author);
	g_free(ss->title);
	g_free(ss->subject);
}

/* Each revision of @s, read; FALSE when there is none with a patch. */
static gboolean
seen_read(struct series_set *s, gboolean sloppy, struct seen_series *ss)
{
	g_autoptr(GArray) revs = series_revisions(s);
	struct followups *f;
	guint i;

	if (!revs->len)
		return FALSE;
	ss->revs = g_array_new(FALSE, TRUE, sizeof(struct rev_info));
	f = followup_collect(s, sloppy);
	for (i = 0; i < revs->len; i++) {
		struct series *ser = series_get(s, g_array_index(revs, int, i));
		struct rev_info ri = {0};

		if (!ser)
			continue;
		rev_info(f, ser, &ri);
		if (!ri.root) {
			g_string_free(ri.reviews, TRUE);
			g_string_free(ri.files, TRUE);
			continue;
		}
		g_array_append_val(ss->revs, ri);
	}
	followup_free(f);
	for (i = ss->revs->len; i-- > 0;) {
		struct rev_info *ri =
		    &g_array_index(ss->revs, struct rev_info, i);
		struct subject sj;

		if (!ss->subject) {
			ss->subject = g_strdup(
			    ri->root->subject ? ri->root->subject : "");
			subject_parse(ss->subject, &sj);
			ss->title =
			    g_utf8_strdown(sj.title ? sj.title : "", -1);
			subject_clear(&sj);
			ss->author = g_ascii_strdown(
			    ri->root->from_email ? ri->root->from_email : "",
			    -1);
			ss->latest = ri->revision;
		}
		if (!ss->change_id)
			ss->change_id = newer_change_id(message_body(ri->root));
	}
	return ss->revs->len > 0;
}

/* ---- into the store ---- */

static gint64
lookup(struct queue *q, const char *sql, const char *text)
{
	return text && *text ? queue_int(q, sql, text, 0) : 0;
}

/* A series of the same author and title whose revisions are all older
 * than @rev (a newer one sent as a new thread), or 0. */
static gint64
by_title(struct queue *q, struct seen_series *ss, int rev)
{
	sqlite3_stmt *st = queue_prepare(
	    q,
	    "SELECT s.id FROM series s WHERE s.author = ?1 AND s.title = ?2 "
	    "AND (SELECT max(revision) FROM revisions r WHERE r.series = "
	    "s.id) <= ?3 ORDER BY s.last_seen DESC LIMIT 1",
	    NULL);
	gint64 id = 0;

	if (!st)
		return 0;
	sqlite3_bind_text(st, 1, ss->author, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, ss->title, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 3, rev);
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return id;
}

/* The series @s belongs to: by change-id, by a message already known, by
 * author and title; 0 when it is new. */
static gint64
find_series(struct queue *q, struct series_set *s, struct seen_series *ss)
{
	static const char by_msg[] =
	    "SELECT series FROM messages WHERE msgid = ?1";
	gint64 id;
	guint i;

	id = lookup(q, "SELECT id FROM series WHERE change_id = ?1",
		    ss->change_id);
	for (i = 0; !id && i < ss->revs->len; i++)
		id = lookup(
		    q, by_msg,
		    g_array_index(ss->revs, struct rev_info, i).root->msgid);
	for (i = 0; !id && i < s->all->len; i++)
		id = lookup(q, by_msg,
			    ((struct spatch *)s->all->pdata[i])->msg->msgid);
	if (!id && *ss->title && *ss->author)
		id = by_title(
		    q, ss,
		    g_array_index(ss->revs, struct rev_info, 0).revision);
	return id;
}

static gint64
new_series(struct queue *q, struct seen_series *ss, gint64 now, GError **err)
{
	const char *root =
	    g_array_index(ss->revs, struct rev_info, 0).root->msgid;
	g_autofree char *key =
	    ss->change_id ? g_strconcat("change-id:", ss->change_id, NULL)
			  : g_strconcat("msgid:", root, NULL);
	sqlite3_stmt *st = queue_prepare(
	    q,
	    "INSERT OR IGNORE INTO series(key, change_id, author, title, "
	    "subject, first_seen, last_seen) VALUES(?1, ?2, ?3, ?4, ?5, ?6, "
	    "?6)",
	    err);
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
	sqlite3_finalize(st);
	return ok ? lookup(q, "SELECT id FROM series WHERE key = ?1", key) : 0;
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

static gboolean
store_rev(struct queue *q, gint64 id, struct rev_info *ri, gint64 now,
	  GError **err)
{
	sqlite3_stmt *st = queue_prepare(
	    q,
	    "SELECT present, reviews, first_seen FROM revisions WHERE series "
	    "= ?1 AND revision = ?2",
	    err);
	g_autofree char *reviews = NULL;
	int present = ri->present;
	gint64 first = now;
	gboolean ok;

	if (!st)
		return FALSE;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int(st, 2, ri->revision);
	if (sqlite3_step(st) == SQLITE_ROW) {
		present = MAX(present, sqlite3_column_int(st, 0));
		reviews = merge_reviews(queue_col(st, 1), ri->reviews->str);
		first = sqlite3_column_int64(st, 2);
	}
	sqlite3_finalize(st);
	present = MIN(present, ri->expected);
	st = queue_prepare(q,
			   "INSERT OR REPLACE INTO revisions VALUES(?1, ?2, "
			   "?3, ?4, ?5, ?6, ?7, ?8)",
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
	sqlite3_finalize(st);
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

static gboolean
store_messages(struct queue *q, struct series_set *s, gint64 id,
	       GHashTable *revs, GError **err)
{
	sqlite3_stmt *st = queue_prepare(
	    q, "INSERT OR REPLACE INTO messages VALUES(?1, ?2, ?3)", err);
	gboolean ok = st != NULL;
	guint i;

	for (i = 0; ok && i < s->all->len; i++) {
		struct spatch *p = s->all->pdata[i];
		int rev = msg_revision(s, p);

		if (!p->msg->msgid || !rev)
			continue;
		g_hash_table_insert(revs, p->msg->msgid, GINT_TO_POINTER(rev));
		sqlite3_bind_text(st, 1, p->msg->msgid, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 2, id);
		sqlite3_bind_int(st, 3, rev);
		ok = queue_check(q, sqlite3_step(st), err);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return ok;
}

/* The state of revision @rev of series @id, as now stored. */
static void
fill_seen(struct queue *q, gint64 id, int rev, struct queue_seen *seen)
{
	sqlite3_stmt *st = queue_prepare(
	    q,
	    "SELECT (SELECT max(revision) FROM revisions WHERE series = s.id), "
	    "s.applied, s.thanked, s.rejected, r.expected, r.present, "
	    "r.reviews FROM series s JOIN revisions r ON r.series = s.id "
	    "WHERE s.id = ?1 AND r.revision = ?2",
	    NULL);
	int patches, total;

	if (!st)
		return;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int(st, 2, rev);
	if (sqlite3_step(st) == SQLITE_ROW) {
		g_auto(GStrv) v = g_strsplit(queue_col(st, 6), " ", -1);
		GString *r = g_string_new(NULL);
		guint i;

		queue_count_reviews(queue_col(st, 6), &patches, &total);
		seen->known = TRUE;
		seen->revision = rev;
		seen->state = queue_rev_state(
		    rev, sqlite3_column_int(st, 0), sqlite3_column_int(st, 1),
		    sqlite3_column_int(st, 2), sqlite3_column_int(st, 3),
		    sqlite3_column_int(st, 4), sqlite3_column_int(st, 5),
		    patches);
		for (i = 0; v[i] && *v[i]; i++) {
			unsigned x = 0, y = 0, z = 0;

			sscanf(v[i], "%u/%u/%u", &x, &y, &z);
			g_string_append_printf(r, "%s%u", i ? "," : "",
					       x + y + z);
		}
		seen->reviews = g_string_free(r, FALSE);
	}
	sqlite3_finalize(st);
}

static gboolean
record(struct queue *q, struct series_set *s, struct seen_series *ss,
       const char *target, struct queue_seen *seen, GError **err)
{
	g_autoptr(GHashTable) revs = g_hash_table_new(g_str_hash, g_str_equal);
	gint64 now = g_get_real_time() / G_USEC_PER_SEC, id;
	gboolean ok;
	guint i;

	if (!queue_begin(q, err))
		return FALSE;
	id = find_series(q, s, ss);
	ok = id || (id = new_series(q, ss, now, err));
	for (i = 0; ok && i < ss->revs->len; i++)
		ok = store_rev(q, id,
			       &g_array_index(ss->revs, struct rev_info, i),
			       now, err);
	ok = ok && store_messages(q, s, id, revs, err);
	if (ok) {
		sqlite3_stmt *st = queue_prepare(
		    q,
		    "UPDATE series SET last_seen = ?2, change_id = "
		    "coalesce(change_id, ?3), subject = CASE WHEN ?4 >= "
		    "(SELECT max(revision) FROM revisions WHERE series = ?1) "
		    "THEN ?5 ELSE subject END WHERE id = ?1",
		    err);

		ok = st != NULL;
		if (ok) {
			sqlite3_bind_int64(st, 1, id);
			sqlite3_bind_int64(st, 2, now);
			sqlite3_bind_text(st, 3, ss->change_id, -1,
					  SQLITE_STATIC);
			sqlite3_bind_int(st, 4, ss->latest);
			sqlite3_bind_text(st, 5, ss->subject, -1,
					  SQLITE_STATIC);
			ok = queue_check(q, sqlite3_step(st), err);
			sqlite3_finalize(st);
		}
	}
	if (ok && seen && target && g_hash_table_contains(revs, target))
		fill_seen(q, id,
			  GPOINTER_TO_INT(g_hash_table_lookup(revs, target)),
			  seen);
	return queue_end(q, ok, err);
}

void
queue_note(struct config *cfg, struct series_set *s, const char *target,
	   gboolean sloppy, struct queue_seen *seen)
{
	const char *on = config_get(cfg, "queue", NULL);
	struct seen_series ss = {0};
	struct queue *q;
	GError *err = NULL;

	if (on && !config_bool(on))
		return;
	if (!s || !seen_read(s, sloppy, &ss)) {
		seen_clear(&ss);
		return;
	}
	q = queue_open(&err);
	if (q && !record(q, s, &ss, target, seen, &err))
		g_prefix_error(&err, "queue %s: not updated: ", q->path);
	if (err) {
		lore_err("%s", err->message);
		g_error_free(err);
		if (seen)
			queue_seen_clear(seen);
	}
	queue_close(q);
	seen_clear(&ss);
}
