/*
 * thread.c - message set and reply graph. The reply tree is the connected
 * component of the target in the graph whose edges join each message to
 * the ids in its In-Reply-To and References (union-find, so a large
 * archive thread costs near-linear time), as b4's strict-thread rule keeps
 * messages that merely share a subject out.
 */
#include "thread/thread-int.h"
#include "core/msgid.h"
#include "core/util.h"

#include <string.h>

struct thread *
thread_new(void)
{
	struct thread *t = g_new0(struct thread, 1);

	t->msgs = g_ptr_array_new_with_free_func((GDestroyNotify)message_free);
	t->by_id = g_hash_table_new(msgid_hash, g_str_equal);
	t->copies = g_hash_table_new_full(msgid_hash, g_str_equal, g_free,
					  (GDestroyNotify)g_ptr_array_unref);
	t->ranks = g_hash_table_new_full(NULL, NULL, NULL, g_free);
	t->merged = g_hash_table_new(NULL, NULL);
	t->chosen = g_hash_table_new(NULL, NULL);
	t->retired =
	    g_ptr_array_new_with_free_func((GDestroyNotify)message_free);
	return t;
}

void
thread_free(struct thread *t)
{
	GHashTableIter it;
	gpointer v;
	guint i;

	if (!t)
		return;
	g_hash_table_iter_init(&it, t->copies);
	while (g_hash_table_iter_next(&it, NULL, &v))
		for (i = 0; i < ((GPtrArray *)v)->len; i++)
			message_free(((GPtrArray *)v)->pdata[i]);
	g_hash_table_destroy(t->copies);
	g_hash_table_destroy(t->ranks);
	g_hash_table_destroy(t->merged);
	g_hash_table_destroy(t->chosen);
	g_hash_table_destroy(t->by_id);
	g_ptr_array_free(t->msgs, TRUE);
	g_ptr_array_free(t->retired, TRUE);
	g_free(t);
}

static void
renumber(struct thread *t)
{
	guint i;

	for (i = 0; i < t->msgs->len; i++)
		((struct message *)t->msgs->pdata[i])->seq = i;
}

/* @m takes the place of @old, the thread's copy of its id, in @msgs. */
static void
take_place(struct thread *t, struct message *old, struct message *m)
{
	guint i = old->seq;

	if (i >= t->msgs->len || t->msgs->pdata[i] != old)
		g_ptr_array_find(t->msgs, old, &i);
	t->msgs->pdata[i] = m;
	m->seq = i;
	g_hash_table_remove(t->by_id, old->msgid);
	g_hash_table_insert(t->by_id, m->msgid, m);
	/* an analysis made before may point to it */
	g_hash_table_add(t->chosen, old);
	t->replaced = TRUE;
}

static struct message *
add(struct thread *t, struct message *m, const char *origin, gboolean merged)
{
	struct message *old;

	if (!m->msgid) {
		t->no_id++;
		message_free(m);
		return NULL;
	}
	m->origin = origin;
	if (merged)
		g_hash_table_add(t->merged, m);
	t->cost += m->len + THREAD_MSG_COST;
	old = g_hash_table_lookup(t->by_id, m->msgid);
	if (old && old->provisional) {
		/* a source's copy of the piped message takes its place, at
		 * the end (thread_settle() moves what is left there) */
		guint i;

		g_hash_table_remove(t->by_id, old->msgid);
		if (g_ptr_array_find(t->msgs, old, &i))
			g_ptr_array_add(t->retired,
					g_ptr_array_steal_index(t->msgs, i));
		renumber(t);
		old = NULL;
	}
	if (!old) {
		m->seq = t->msgs->len;
		g_ptr_array_add(t->msgs, m);
		g_hash_table_insert(t->by_id, m->msgid, m);
		return m;
	}
	/* the archive's copy of a local one is never used; nor are the same
	 * bytes again */
	if ((merged && !g_hash_table_contains(t->merged, old)) ||
	    (thread_better(t, m, old) >= 0 && thread_same_bytes(t, m, old))) {
		t->dups++;
		t->cost -= MIN(t->cost, m->len + THREAD_MSG_COST);
		thread_forget(t, m);
		return NULL;
	}
	if (thread_better(t, m, old) < 0) {
		gboolean archive = g_hash_table_contains(t->merged, old);

		take_place(t, old, m);
		/* a local copy in the archive's place: the archive's copies
		 * are no choice any more */
		if (archive && !merged) {
			g_ptr_array_add(t->retired, old);
			thread_drop_copies(t, m->msgid);
		} else {
			thread_keep_copy(t, old);
		}
		return m;
	}
	thread_keep_copy(t, m);
	return NULL;
}

struct message *
thread_add(struct thread *t, struct message *m, const char *origin)
{
	return add(t, m, origin, FALSE);
}

struct message *
thread_add_provisional(struct thread *t, struct message *m, const char *origin)
{
	struct message *k = thread_add(t, m, origin);

	if (k)
		k->provisional = TRUE;
	return k;
}

gboolean
thread_settle(struct thread *t)
{
	guint i, n = t->msgs->len;
	gboolean moved = t->replaced;

	t->replaced = FALSE;
	for (i = 0; i < n;) {
		struct message *m = t->msgs->pdata[i];

		if (m->provisional) {
			m->provisional = FALSE;
			moved |= i + 1 < t->msgs->len;
			g_ptr_array_steal_index(t->msgs, i);
			g_ptr_array_add(t->msgs, m);
			n--;
		} else {
			i++;
		}
	}
	renumber(t);
	return moved;
}

struct message *
thread_add_raw(struct thread *t, const char *buf, size_t len,
	       const char *origin)
{
	struct message *m;

	if (len > LORE_MAX_MESSAGE) {
		t->too_big++;
		return NULL;
	}
	m = message_parse(buf, len, NULL);
	if (!m) {
		t->unparsable++;
		return NULL;
	}
	return thread_add(t, m, origin);
}

struct message *
thread_get(struct thread *t, const char *msgid)
{
	return msgid ? g_hash_table_lookup(t->by_id, msgid) : NULL;
}

guint
thread_merge(struct thread *dst, struct thread *src)
{
	gpointer *v;
	gsize n, i;
	guint kept = 0, k;

	g_hash_table_remove_all(src->by_id);
	v = g_ptr_array_steal(src->msgs, &n);
	for (i = 0; i < n; i++) {
		struct message *m = v[i];
		gpointer key, cv = NULL;

		/* its other copies come along */
		g_hash_table_steal_extended(src->copies, m->msgid, &key, &cv);
		if (add(dst, m, m->origin, TRUE))
			kept++;
		for (k = 0; cv && k < ((GPtrArray *)cv)->len; k++) {
			struct message *c = ((GPtrArray *)cv)->pdata[k];

			add(dst, c, c->origin, TRUE);
		}
		if (cv) {
			g_ptr_array_unref(cv);
			g_free(key);
		}
	}
	g_free(v);
	/* what src's tables said of the messages moved is dst's now */
	g_hash_table_remove_all(src->ranks);
	g_hash_table_remove_all(src->merged);
	g_hash_table_remove_all(src->chosen);
	src->cost = 0;
	dst->no_id += src->no_id;
	dst->unparsable += src->unparsable;
	src->no_id = src->unparsable = 0;
	return kept;
}

/* union-find: node i is the thread's message i, the ids its messages name
 * that are none of theirs are interned after them */
struct uf {
	GHashTable *ix; /* id -> index+1, ids of no message */
	GArray *parent;
};

static guint
uf_id(struct uf *u, const char *id)
{
	gpointer v = g_hash_table_lookup(u->ix, id);
	guint n;

	if (v)
		return GPOINTER_TO_UINT(v) - 1;
	n = u->parent->len;
	g_array_append_val(u->parent, n);
	g_hash_table_insert(u->ix, (gpointer)id, GUINT_TO_POINTER(n + 1));
	return n;
}

static guint
uf_find(struct uf *u, guint x)
{
	guint *p = (guint *)u->parent->data;

	while (p[x] != x) {
		p[x] = p[p[x]];
		x = p[x];
	}
	return x;
}

static void
uf_union(struct uf *u, guint a, guint b)
{
	a = uf_find(u, a);
	b = uf_find(u, b);
	if (a != b)
		((guint *)u->parent->data)[a] = b;
}

/* The ids @m names as its ancestors (In-Reply-To and References), the
 * In-Reply-To once: References end with it in most replies, and each id
 * costs a look-up. */
static void
each_ref(const struct message *m, void (*fn)(const char *, void *), void *d)
{
	const char *irt = m->in_reply_to;
	guint i;

	if (irt)
		fn(irt, d);
	for (i = 0; i < m->refs->len; i++)
		if (!irt || strcmp(m->refs->pdata[i], irt))
			fn(m->refs->pdata[i], d);
}

static void
add_to_set(const char *id, void *d)
{
	g_hash_table_add(d, (gpointer)id);
}

struct link_ctx {
	struct uf *u;
	guint self;
	GHashTable *cut;
	struct thread *t;
	const char *sender;
	GPtrArray *keys; /* owned keys made for sender-scoped ids */
};

/* The node of the message of the thread with the id @id, if any: its
 * index in t->msgs. */
static gboolean
message_node(struct thread *t, const char *id, guint *node)
{
	struct message *m = g_hash_table_lookup(t->by_id, id);

	if (!m)
		return FALSE;
	if (m->seq < t->msgs->len && t->msgs->pdata[m->seq] == m)
		*node = m->seq;
	else if (!g_ptr_array_find(t->msgs, m, node))
		return FALSE;
	return TRUE;
}

static void
link_ref(const char *id, void *d)
{
	struct link_ctx *c = d;
	guint node;

	if (c->cut && g_hash_table_contains(c->cut, id))
		return;
	if (message_node(c->t, id, &node)) {
		uf_union(c->u, c->self, node);
		return;
	}
	/*
	 * An id without '@' is no msg-id (RFC 5322 3.6.4): git send-email
	 * users answering "yes" to its In-Reply-To prompt give unrelated
	 * series the same parent "<yes>". Such an id joins only the messages
	 * of one sender.
	 */
	if (!strchr(id, '@')) {
		char *k = g_strconcat(id, "\n", c->sender, NULL);

		g_ptr_array_add(c->keys, k);
		id = k;
	}
	uf_union(c->u, c->self, uf_id(c->u, id));
}

guint
thread_prune(struct thread *t, const char *msgid, gboolean no_parent)
{
	struct uf u;
	struct message *target = thread_get(t, msgid);
	GHashTable *cut = NULL;
	GPtrArray *keep, *keys;
	gboolean *in;
	guint i, root, dropped, n = t->msgs->len;

	if (!target)
		return 0;
	keys = g_ptr_array_new_with_free_func(g_free);
	u.ix = g_hash_table_new(msgid_hash, g_str_equal);
	u.parent = g_array_sized_new(FALSE, FALSE, sizeof(guint), n * 2);
	for (i = 0; i < n; i++)
		g_array_append_val(u.parent, i);
	if (no_parent) {
		cut = g_hash_table_new(msgid_hash, g_str_equal);
		each_ref(target, add_to_set, cut);
	}
	for (i = 0; i < n; i++) {
		struct message *m = t->msgs->pdata[i];
		struct link_ctx c = {&u, i, cut, t, m->from_email, keys};

		if (m == target && no_parent)
			continue;
		each_ref(m, link_ref, &c);
	}
	if (!message_node(t, target->msgid, &root))
		root = uf_id(&u, target->msgid); /* as its replies name it */
	root = uf_find(&u, root);
	/* decide first: the union-find's keys are the messages' own ids */
	in = g_new(gboolean, n + 1);
	for (i = 0; i < n; i++)
		in[i] = uf_find(&u, i) == root;
	g_hash_table_destroy(u.ix);
	u.ix = NULL;
	g_ptr_array_free(keys, TRUE);
	keep = g_ptr_array_new_with_free_func((GDestroyNotify)message_free);
	for (i = 0; i < t->msgs->len; i++) {
		struct message *m = t->msgs->pdata[i];

		if (in[i]) {
			g_ptr_array_add(keep, m);
		} else {
			g_hash_table_remove(t->by_id, m->msgid);
			thread_forget_copies(t, m->msgid);
			thread_forget(t, m);
		}
		t->msgs->pdata[i] = NULL;
	}
	dropped = t->msgs->len - keep->len;
	g_ptr_array_free(t->msgs, TRUE);
	t->msgs = keep;
	renumber(t);
	if (cut)
		g_hash_table_destroy(cut);
	g_free(in);
	g_array_free(u.parent, TRUE);
	return dropped;
}

struct message *
thread_parent(struct thread *t, const struct message *m)
{
	struct message *p;
	guint i;

	if (m->in_reply_to && strcmp(m->in_reply_to, m->msgid) &&
	    (p = thread_get(t, m->in_reply_to)))
		return p;
	for (i = m->refs->len; i > 0; i--) {
		const char *id = m->refs->pdata[i - 1];

		if (strcmp(id, m->msgid) && (p = thread_get(t, id)))
			return p;
	}
	return NULL;
}

static int
by_date(gconstpointer a, gconstpointer b)
{
	const struct message *x = *(struct message *const *)a;
	const struct message *y = *(struct message *const *)b;

	if (x->date != y->date)
		return x->date < y->date ? -1 : 1;
	return x->seq < y->seq ? -1 : (x->seq > y->seq);
}

GPtrArray *
thread_ordered(struct thread *t)
{
	GHashTable *kids = g_hash_table_new(NULL, NULL);
	GHashTable *seen = g_hash_table_new(NULL, NULL);
	GPtrArray *roots = g_ptr_array_new();
	GPtrArray *out = g_ptr_array_sized_new(t->msgs->len);
	GPtrArray *stack = g_ptr_array_new();
	guint i;

	for (i = 0; i < t->msgs->len; i++) {
		struct message *m = t->msgs->pdata[i];
		struct message *p = thread_parent(t, m);

		if (p) {
			GPtrArray *k = g_hash_table_lookup(kids, p);

			if (!k) {
				k = g_ptr_array_new();
				g_hash_table_insert(kids, p, k);
			}
			g_ptr_array_add(k, m);
		} else {
			g_ptr_array_add(roots, m);
		}
	}
	g_ptr_array_sort(roots, by_date);
	/* depth first, iteratively: a hostile thread may be very deep */
	for (i = roots->len; i > 0; i--)
		g_ptr_array_add(stack, roots->pdata[i - 1]);
	for (;;) {
		struct message *m;
		GPtrArray *k;
		guint j;

		if (!stack->len) {
			/* members of a reference cycle have no root: start
			 * from the earliest one not yet written */
			for (i = 0; i < t->msgs->len; i++)
				if (!g_hash_table_contains(seen,
							   t->msgs->pdata[i]))
					break;
			if (i == t->msgs->len)
				break;
			g_ptr_array_add(stack, t->msgs->pdata[i]);
		}
		m = g_ptr_array_steal_index(stack, stack->len - 1);
		if (g_hash_table_contains(seen, m))
			continue;
		g_hash_table_add(seen, m);
		g_ptr_array_add(out, m);
		k = g_hash_table_lookup(kids, m);
		if (!k)
			continue;
		g_ptr_array_sort(k, by_date);
		for (j = k->len; j > 0; j--)
			g_ptr_array_add(stack, k->pdata[j - 1]);
	}
	{
		GHashTableIter it;
		gpointer key, val;

		g_hash_table_iter_init(&it, kids);
		while (g_hash_table_iter_next(&it, &key, &val))
			g_ptr_array_free(val, TRUE);
	}
	g_hash_table_destroy(kids);
	g_hash_table_destroy(seen);
	g_ptr_array_free(roots, TRUE);
	g_ptr_array_free(stack, TRUE);
	return out;
}
