/*
 * mdwalk.c - the target's connected component in a mailbox's index, with
 * thread_prune()'s rules: an edge from each message to every id of its
 * In-Reply-To and References, missing ids included; an id without '@'
 * that no message has joins only the messages of one sender. The graph is
 * the folder's rows and the messages the thread already holds; a breadth-
 * first walk over ids asks the index for who has an id and who names it.
 */
#include "mdindex-int.h"
#include "message.h"
#include "util.h"

#include <string.h>

static void
row_free(struct mdindex_row *r)
{
	g_free(r->name);
	g_free(r->msgid);
	g_free(r->refs);
	g_free(r);
}

struct walk {
	struct mdindex *x;
	struct thread *t;
	sqlite3_stmt *by_msgid, *by_ref, *present;
	GHashTable *nodes;   /* node keys seen (owned) */
	GQueue todo;	     /* node keys to expand (borrowed from nodes) */
	GHashTable *rows;    /* row id -> struct mdindex_row */
	GHashTable *t_links; /* id -> GPtrArray of the thread's messages */
	GHashTable *t_done;  /* the thread's messages expanded */
	GHashTable *known;   /* id -> present or not, as thread_prune() sees */
	gboolean found;	     /* a row with the target's id */
	int rc;
};

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
push(struct walk *w, const char *id, const char *sender)
{
	char *k;

	if (!sender && g_hash_table_contains(w->nodes, id))
		return;
	k = sender ? g_strconcat(id, "\n", sender, NULL) : g_strdup(id);
	if (g_hash_table_contains(w->nodes, k)) {
		g_free(k);
		return;
	}
	g_hash_table_add(w->nodes, k);
	g_queue_push_tail(&w->todo, k);
}

/* The edges of one message: its own id, and each ancestor id. */
static void
link_ref(struct walk *w, const char *id, size_t n, const char *sender)
{
	g_autofree char *r = g_strndup(id, n);

	if (strchr(r, '@') || present(w, r))
		push(w, r, NULL);
	else
		push(w, r, sender);
}

static void
expand_msg(struct walk *w, const struct message *m)
{
	guint i;

	if (!g_hash_table_add(w->t_done, (gpointer)m))
		return;
	push(w, m->msgid, NULL);
	if (m->in_reply_to)
		link_ref(w, m->in_reply_to, strlen(m->in_reply_to),
			 m->from_email);
	for (i = 0; i < m->refs->len; i++)
		link_ref(w, m->refs->pdata[i], strlen(m->refs->pdata[i]),
			 m->from_email);
}

/* Take the rows a statement yields (id, dir, name, off, len, msgid,
 * sender, refs); with @sender, only those from that sender. */
static void
take_rows(struct walk *w, sqlite3_stmt *s, const char *sender)
{
	int rc;

	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		gint64 id = sqlite3_column_int64(s, 0);
		const char *from = (const char *)sqlite3_column_text(s, 6);
		const char *refs = (const char *)sqlite3_column_text(s, 7);
		struct mdindex_row *r;
		const char *p, *nl;

		if (sender && g_strcmp0(sender, from ? from : ""))
			continue;
		if (g_hash_table_contains(w->rows, &id))
			continue;
		r = g_new0(struct mdindex_row, 1);
		r->dir = sqlite3_column_int(s, 1);
		r->name = g_strdup((const char *)sqlite3_column_text(s, 2));
		r->off = sqlite3_column_int64(s, 3);
		r->len = sqlite3_column_int64(s, 4);
		r->msgid = g_strdup((const char *)sqlite3_column_text(s, 5));
		r->refs = g_strdup(refs ? refs : "");
		g_hash_table_insert(w->rows, g_memdup2(&id, sizeof(id)), r);
		push(w, r->msgid, NULL);
		for (p = r->refs; (nl = strchr(p, '\n')); p = nl + 1)
			link_ref(w, p, nl - p, from ? from : "");
	}
	if (rc != SQLITE_DONE)
		w->rc = rc;
	sqlite3_reset(s);
}

static void
expand(struct walk *w, const char *key)
{
	const char *nl = strchr(key, '\n');
	g_autofree char *id = nl ? g_strndup(key, nl - key) : g_strdup(key);
	const char *sender = nl ? nl + 1 : NULL;
	GPtrArray *tm = g_hash_table_lookup(w->t_links, id);
	guint i;

	if (!sender) {
		sqlite3_bind_text(w->by_msgid, 1, id, -1, SQLITE_STATIC);
		take_rows(w, w->by_msgid, NULL);
	}
	sqlite3_bind_text(w->by_ref, 1, id, -1, SQLITE_STATIC);
	take_rows(w, w->by_ref, sender);
	for (i = 0; tm && i < tm->len; i++) {
		const struct message *m = tm->pdata[i];

		if (!sender || !strcmp(sender, m->from_email))
			expand_msg(w, m);
	}
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

#define ROW_COLS "m.id, m.dir, m.name, m.off, m.len, m.msgid, m.sender, m.refs"

static gboolean
walk_all(struct walk *w, const char *msgid, GError **err)
{
	guint i, j;
	char *k;

	w->by_msgid = mdindex_prepare(
	    w->x, "SELECT " ROW_COLS " FROM msg m WHERE m.msgid = ?", err);
	w->by_ref = mdindex_prepare(w->x,
				    "SELECT " ROW_COLS
				    " FROM ref r JOIN msg m ON m.id = r.msg"
				    " WHERE r.ref = ?",
				    err);
	w->present = mdindex_prepare(
	    w->x, "SELECT 1 FROM msg WHERE msgid = ? LIMIT 1", err);
	if (!w->by_msgid || !w->by_ref || !w->present)
		return FALSE;
	for (i = 0; i < w->t->msgs->len; i++) {
		struct message *m = w->t->msgs->pdata[i];

		t_link(w->t_links, m->msgid, m);
		if (m->in_reply_to)
			t_link(w->t_links, m->in_reply_to, m);
		for (j = 0; j < m->refs->len; j++)
			t_link(w->t_links, m->refs->pdata[j], m);
	}
	push(w, msgid, NULL);
	while ((k = g_queue_pop_head(&w->todo)) && !w->rc)
		expand(w, k);
	if (w->rc)
		return mdindex_fail(w->x, w->rc, err);
	return TRUE;
}

GPtrArray *
mdindex_walk(struct mdindex *x, const char *msgid, struct thread *t,
	     gboolean *found, GError **err)
{
	struct walk w = {.x = x, .t = t};
	GPtrArray *rows = NULL;
	GHashTableIter it;
	gpointer k, v;
	gboolean ok;

	w.nodes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	w.rows = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free,
				       (GDestroyNotify)row_free);
	w.t_links = g_hash_table_new_full(g_str_hash, g_str_equal, NULL,
					  (GDestroyNotify)g_ptr_array_unref);
	w.t_done = g_hash_table_new(NULL, NULL);
	w.known = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_queue_init(&w.todo);
	ok = walk_all(&w, msgid, err);
	sqlite3_finalize(w.by_msgid);
	sqlite3_finalize(w.by_ref);
	sqlite3_finalize(w.present);
	*found = FALSE;
	if (ok) {
		rows = g_ptr_array_new_with_free_func((GDestroyNotify)row_free);
		g_hash_table_iter_init(&it, w.rows);
		while (g_hash_table_iter_next(&it, &k, &v)) {
			const struct mdindex_row *r = v;

			*found |= !g_strcmp0(r->msgid, msgid);
			g_ptr_array_add(rows, v);
			g_hash_table_iter_steal(&it);
			g_free(k);
		}
	}
	g_hash_table_destroy(w.nodes);
	g_hash_table_destroy(w.rows);
	g_hash_table_destroy(w.t_links);
	g_hash_table_destroy(w.t_done);
	g_hash_table_destroy(w.known);
	g_queue_clear(&w.todo);
	return rows;
}
