/*
 * mdwalk.c - the target's connected component in a mailbox's index, with
 * thread_prune()'s rules: an edge from each message to every id of its
 * In-Reply-To and References, missing ids included; an id without '@'
 * that no message has joins only the messages of one sender. The graph is
 * the one thread_prune() will see: for each id, the copy the thread will
 * keep (thread.h; the folder's copies of an id, and the thread's own, are
 * read and ranked only when there is a choice), whose references are the
 * edges; every copy of an id reached is handed over, as a scan of the
 * whole folder hands them. A breadth-first walk over ids asks the index
 * who has an id and who names it.
 */
#include "source/mdindex-int.h"
#include "mail/message.h"
#include "core/util.h"

#include <string.h>

void
mdindex_row_free(struct mdindex_row *r)
{
	if (!r)
		return;
	g_free(r->name);
	g_free(r->msgid);
	g_free(r->sender);
	g_free(r->refs);
	g_free(r);
}

int
mdindex_row_place(gconstpointer a, gconstpointer b)
{
	const struct mdindex_row *x = *(struct mdindex_row *const *)a;
	const struct mdindex_row *y = *(struct mdindex_row *const *)b;

	if (x->dir != y->dir)
		return x->dir - y->dir;
	if (x->dir == MDINDEX_DIR_MBOX)
		return x->off < y->off ? -1 : x->off > y->off;
	/* a row without its name (a damaged file) is read as damage */
	return g_strcmp0(x->name, y->name);
}

struct walk {
	struct mdindex *x;
	struct thread *t;
	sqlite3_stmt *by_msgid, *by_ref, *present;
	GHashTable *nodes;   /* node keys seen (owned) */
	GQueue todo;	     /* node keys to expand (borrowed from nodes) */
	GHashTable *rows;    /* msgid -> GPtrArray of its rows (owned) */
	GHashTable *win;     /* msgid -> the row of the copy the thread will
				keep, or NULL: the thread's own (or none) */
	GHashTable *chosen;  /* msgid -> its rows (borrowed from rows) */
	GHashTable *t_links; /* id -> GPtrArray of the thread's messages */
	GHashTable *known;   /* id -> present or not, as thread_prune() sees */
	int rc;
	gboolean damaged; /* a ref row without its msg row was met */
};

/* SELECT id, dir, name, off, len, msgid, sender, refs */
#define ROW_COLS "m.id, m.dir, m.name, m.off, m.len, m.msgid, m.sender, m.refs"

static struct mdindex_row *
row_from(sqlite3_stmt *s)
{
	struct mdindex_row *r = g_new0(struct mdindex_row, 1);
	const char *v;

	r->id = sqlite3_column_int64(s, 0);
	r->dir = sqlite3_column_int(s, 1);
	r->name = g_strdup((const char *)sqlite3_column_text(s, 2));
	r->off = sqlite3_column_int64(s, 3);
	r->len = sqlite3_column_int64(s, 4);
	r->msgid = g_strdup((const char *)sqlite3_column_text(s, 5));
	v = (const char *)sqlite3_column_text(s, 6);
	r->sender = g_strdup(v ? v : "");
	v = (const char *)sqlite3_column_text(s, 7);
	r->refs = g_strdup(v ? v : "");
	return r;
}

/* The folder's copies of @msgid, in the plain scan's order (maybe none). */
static GPtrArray *
copies_of(struct walk *w, const char *msgid)
{
	GPtrArray *a;
	int rc;

	if ((a = g_hash_table_lookup(w->rows, msgid)))
		return a;
	a = g_ptr_array_new_with_free_func((GDestroyNotify)mdindex_row_free);
	sqlite3_bind_text(w->by_msgid, 1, msgid, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(w->by_msgid)) == SQLITE_ROW)
		g_ptr_array_add(a, row_from(w->by_msgid));
	if (rc != SQLITE_DONE)
		w->rc = rc;
	sqlite3_reset(w->by_msgid);
	g_ptr_array_sort(a, mdindex_row_place);
	g_hash_table_insert(w->rows, g_strdup(msgid), a);
	return a;
}

/*
 * The folder's copy of @msgid the thread will keep, or NULL when it keeps
 * its own (or the folder has none). A piped, provisional copy gives way to
 * any source's.
 */
static const struct mdindex_row *
winner(struct walk *w, const char *msgid)
{
	GPtrArray *rows = copies_of(w, msgid), *msgs;
	struct message *m = thread_get(w->t, msgid);
	const struct mdindex_row *r = NULL;
	gpointer v;
	gint k;

	if (g_hash_table_lookup_extended(w->win, msgid, NULL, &v))
		return v;
	if (m && m->provisional)
		m = NULL;
	if (rows->len == 1 && !m) {
		r = rows->pdata[0];
	} else if (rows->len) {
		msgs = g_ptr_array_new_with_free_func(
		    (GDestroyNotify)message_free);
		/* a mail that went away or changed: the reading after the
		 * walk finds it too, and falls back or fails there */
		if (!mdindex_read(w->x, rows, msgs))
			k = 0;
		else
			k = thread_choose(w->t, msgs);
		r = k < 0 ? NULL : rows->pdata[k];
		g_ptr_array_free(msgs, TRUE);
	}
	g_hash_table_insert(w->win, g_strdup(msgid), (gpointer)r);
	return r;
}

static gboolean
present(struct walk *w, const char *id)
{
	gpointer v;

	if (g_hash_table_lookup_extended(w->known, id, NULL, &v))
		return GPOINTER_TO_INT(v);
	v = GINT_TO_POINTER(thread_get(w->t, id) != NULL);
	if (!v) {
		sqlite3_bind_text(w->present, 1, id, -1, SQLITE_STATIC);
		v = GINT_TO_POINTER(sqlite3_step(w->present) == SQLITE_ROW);
		sqlite3_reset(w->present);
	}
	g_hash_table_insert(w->known, g_strdup(id), v);
	return GPOINTER_TO_INT(v);
}

/* A node: an id, or an id scoped to a sender ("id\nsender"). */
static void
push(struct walk *w, const char *id, size_t n, const char *sender)
{
	char *k = sender ? g_strdup_printf("%.*s\n%s", (int)n, id, sender)
			 : g_strndup(id, n);

	if (g_hash_table_contains(w->nodes, k)) {
		g_free(k);
		return;
	}
	g_hash_table_add(w->nodes, k);
	g_queue_push_tail(&w->todo, k);
}

/* An ancestor id named by a message from @sender. */
static void
link_ref(struct walk *w, const char *id, size_t n, const char *sender)
{
	g_autofree char *r = g_strndup(id, n);

	push(w, r, n, strchr(r, '@') || present(w, r) ? NULL : sender);
}

static void
link_msg(struct walk *w, const struct message *m)
{
	guint i;

	if (m->in_reply_to)
		link_ref(w, m->in_reply_to, strlen(m->in_reply_to),
			 m->from_email);
	for (i = 0; i < m->refs->len; i++)
		link_ref(w, m->refs->pdata[i], strlen(m->refs->pdata[i]),
			 m->from_email);
}

/* The messages that name @id, each through the copy of it that counts;
 * with @sender (an id scoped to it), only those from that sender. */
static void
referrers(struct walk *w, const char *id, const char *sender)
{
	GPtrArray *tm = g_hash_table_lookup(w->t_links, id);
	GPtrArray *ids = g_ptr_array_new_with_free_func(g_free);
	guint64 sum = 0;
	guint i;
	int rc;

	sqlite3_bind_text(w->by_ref, 1, id, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(w->by_ref)) == SQLITE_ROW) {
		const char *from =
		    (const char *)sqlite3_column_text(w->by_ref, 6);
		gint64 rid = sqlite3_column_int64(w->by_ref, 0);
		const char *mid =
		    (const char *)sqlite3_column_text(w->by_ref, 5);

		/* a reference whose message has no row: a row was lost */
		if (!rid) {
			w->damaged = TRUE;
			break;
		}
		if (!mid || (sender && g_strcmp0(sender, from ? from : "")))
			continue;
		/* a million replies to one message: each would be a row
		 * of the answer, so the list stops where they would pass
		 * the bound */
		sum += (guint64)MAX(sqlite3_column_int64(w->by_ref, 4), 0) +
		       THREAD_MSG_COST;
		if (w->x->budget && w->x->spent + sum > w->x->budget) {
			w->x->counted += ids->len;
			w->x->over = TRUE;
			break;
		}
		g_ptr_array_add(
		    ids, g_strdup_printf("%" G_GINT64_FORMAT "\n%s", rid, mid));
	}
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		w->rc = rc;
	sqlite3_reset(w->by_ref);
	/* a copy that the thread does not keep links nothing */
	for (i = 0; i < ids->len && !w->rc && !w->x->over && !w->damaged; i++) {
		char *nl = strchr(ids->pdata[i], '\n');
		const struct mdindex_row *f = winner(w, nl + 1);

		if (f && g_ascii_strtoll(ids->pdata[i], NULL, 10) == f->id)
			push(w, nl + 1, strlen(nl + 1), NULL);
	}
	g_ptr_array_free(ids, TRUE);
	for (i = 0; tm && i < tm->len; i++) {
		const struct message *m = tm->pdata[i];

		if ((!sender || !strcmp(sender, m->from_email)) &&
		    !winner(w, m->msgid))
			push(w, m->msgid, strlen(m->msgid), NULL);
	}
}

static void
expand(struct walk *w, const char *key)
{
	const char *nl = strchr(key, '\n');
	g_autofree char *id = nl ? g_strndup(key, nl - key) : g_strdup(key);
	const struct mdindex_row *r;
	const struct message *m;
	GPtrArray *rows;
	guint i;

	if (nl) {
		referrers(w, id, nl + 1);
		return;
	}
	rows = copies_of(w, id);
	/* every copy goes to the thread, which keeps the winner: each
	 * counts against the memory bound */
	for (i = 0; i < rows->len; i++)
		if (!mdindex_spend(w->x,
				   ((struct mdindex_row *)rows->pdata[i])->len,
				   TRUE))
			return;
	if (rows->len)
		g_hash_table_insert(
		    w->chosen, ((struct mdindex_row *)rows->pdata[0])->msgid,
		    rows);
	if ((r = winner(w, id))) {
		const char *p, *e;

		for (p = r->refs; (e = strchr(p, '\n')); p = e + 1)
			link_ref(w, p, e - p, r->sender);
	} else if ((m = thread_get(w->t, id))) {
		link_msg(w, m);
	}
	referrers(w, id, NULL);
}

static void
t_link(GHashTable *links, const char *id, struct message *m)
{
	GPtrArray *a = g_hash_table_lookup(links, id);

	if (!a) {
		a = g_ptr_array_new();
		g_hash_table_insert(links, (gpointer)id, a);
	}
	g_ptr_array_add(a, m);
}

static gboolean
walk_all(struct walk *w, const char *msgid, GError **err)
{
	guint i, j;
	char *k;

	w->by_msgid = mdindex_prepare(
	    w->x, "SELECT " ROW_COLS " FROM msg m WHERE m.msgid = ?", err);
	/* LEFT JOIN: a ref row whose msg row is gone shows, id NULL (0) */
	w->by_ref = mdindex_prepare(
	    w->x,
	    "SELECT " ROW_COLS " FROM ref r LEFT JOIN msg m ON m.id = r.msg"
	    " WHERE r.ref = ?",
	    err);
	w->present = mdindex_prepare(
	    w->x, "SELECT 1 FROM msg WHERE msgid = ? LIMIT 1", err);
	if (!w->by_msgid || !w->by_ref || !w->present)
		return FALSE;
	for (i = 0; i < w->t->msgs->len; i++) {
		struct message *m = w->t->msgs->pdata[i];

		if (m->in_reply_to)
			t_link(w->t_links, m->in_reply_to, m);
		for (j = 0; j < m->refs->len; j++)
			t_link(w->t_links, m->refs->pdata[j], m);
	}
	push(w, msgid, strlen(msgid), NULL);
	while (!w->rc && !w->x->over && !w->damaged &&
	       (k = g_queue_pop_head(&w->todo)))
		expand(w, k);
	if (w->rc)
		return mdindex_fail(w->x, w->rc, err);
	if (w->damaged)
		g_set_error(err, MDINDEX_ERROR, MDINDEX_EDAMAGED,
			    "lacks a message's row (a reference names a row "
			    "that is gone)");
	return !w->damaged;
}

GPtrArray *
mdindex_walk(struct mdindex *x, const char *msgid, struct thread *t,
	     gboolean *found, GError **err)
{
	struct walk w = {.x = x, .t = t};
	GPtrArray *rows = NULL;
	GHashTableIter it;
	gpointer v;
	gboolean ok;

	w.nodes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	w.rows = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
				       (GDestroyNotify)g_ptr_array_unref);
	w.win = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	w.chosen = g_hash_table_new(g_str_hash, g_str_equal);
	w.t_links = g_hash_table_new_full(g_str_hash, g_str_equal, NULL,
					  (GDestroyNotify)g_ptr_array_unref);
	w.known = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_queue_init(&w.todo);
	ok = walk_all(&w, msgid, err);
	*found = ok && copies_of(&w, msgid)->len;
	ok = ok && !w.rc && !x->over && !w.damaged;
	if (w.rc)
		mdindex_fail(x, w.rc, err);
	sqlite3_finalize(w.by_msgid);
	sqlite3_finalize(w.by_ref);
	sqlite3_finalize(w.present);
	if (ok) {
		rows = g_ptr_array_new_with_free_func(
		    (GDestroyNotify)mdindex_row_free);
		g_hash_table_iter_init(&it, w.chosen);
		/* every copy's row moves from w.rows to the answer */
		while (g_hash_table_iter_next(&it, NULL, &v)) {
			GPtrArray *a = v;

			while (a->len)
				g_ptr_array_add(rows,
						g_ptr_array_steal_index(a, 0));
		}
	}
	g_hash_table_destroy(w.chosen);
	g_hash_table_destroy(w.nodes);
	g_hash_table_destroy(w.win);
	g_hash_table_destroy(w.rows);
	g_hash_table_destroy(w.t_links);
	g_hash_table_destroy(w.known);
	g_queue_clear(&w.todo);
	return rows;
}
