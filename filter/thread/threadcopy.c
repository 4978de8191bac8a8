/*
 * threadcopy.c - the copies of one Message-ID a thread keeps (thread.h):
 * ranked by copyrank.h's rule, a local source's before the archive's, the
 * same bytes kept once, at most THREAD_MAX_COPIES beside the thread's own;
 * and which of them a source or the writer may take.
 */
#include "thread/thread-int.h"

#include <string.h>

/* Free @m, a copy no analysis points to, and what the tables say of it. */
void
thread_forget(struct thread *t, struct message *m)
{
	g_hash_table_remove(t->ranks, m);
	g_hash_table_remove(t->merged, m);
	g_hash_table_remove(t->chosen, m);
	message_free(m);
}

/* Free the other copies of @msgid. */
void
thread_forget_copies(struct thread *t, const char *msgid)
{
	gpointer key, val;
	guint i;

	if (!g_hash_table_steal_extended(t->copies, msgid, &key, &val))
		return;
	for (i = 0; i < ((GPtrArray *)val)->len; i++)
		thread_forget(t, ((GPtrArray *)val)->pdata[i]);
	g_ptr_array_unref(val);
	g_free(key);
}

void
thread_drop_copies(struct thread *t, const char *msgid)
{
	gpointer key, val;
	guint i;

	if (!g_hash_table_steal_extended(t->copies, msgid, &key, &val))
		return;
	for (i = 0; i < ((GPtrArray *)val)->len; i++) {
		struct message *c = ((GPtrArray *)val)->pdata[i];

		t->dups++;
		if (g_hash_table_contains(t->chosen, c))
			g_ptr_array_add(t->retired, c);
		else
			thread_forget(t, c);
	}
	g_ptr_array_unref(val);
	g_free(key);
}

const struct copyrank *
thread_rank(struct thread *t, struct message *m)
{
	struct copyrank *r = g_hash_table_lookup(t->ranks, m);

	if (!r) {
		r = g_new0(struct copyrank, 1);
		copyrank_of(m, r);
		g_hash_table_insert(t->ranks, m, r);
	}
	return r;
}

/* < 0 when @a is the copy to keep: a local source's before the archive's
 * (thread_merge()), then copyrank.h's rule. */
int
thread_better(struct thread *t, struct message *a, struct message *b)
{
	gboolean ma = g_hash_table_contains(t->merged, a);
	gboolean mb = g_hash_table_contains(t->merged, b);

	if (ma != mb)
		return ma ? 1 : -1;
	return copyrank_cmp(thread_rank(t, a), thread_rank(t, b));
}

/* Keep @m beside the thread's copy of its id, in rank order; past
 * THREAD_MAX_COPIES the worst goes (put aside if it was ever the
 * thread's copy: an analysis may point to it). */
void
thread_keep_copy(struct thread *t, struct message *m)
{
	GPtrArray *c = g_hash_table_lookup(t->copies, m->msgid);
	struct message *worst;
	guint i;

	if (!c) {
		c = g_ptr_array_new();
		g_hash_table_insert(t->copies, g_strdup(m->msgid), c);
	}
	for (i = 0; i < c->len && thread_better(t, c->pdata[i], m) <= 0; i++)
		;
	g_ptr_array_insert(c, i, m);
	if (c->len <= THREAD_MAX_COPIES)
		return;
	worst = g_ptr_array_steal_index(c, c->len - 1);
	t->dups++;
	t->cost -= MIN(t->cost, worst->len + THREAD_MSG_COST);
	if (g_hash_table_contains(t->chosen, worst))
		g_ptr_array_add(t->retired, worst);
	else
		thread_forget(t, worst);
}

/* Has the thread @m's bytes already, as @old or one of its copies? */
gboolean
thread_same_bytes(struct thread *t, struct message *m, struct message *old)
{
	GPtrArray *c = g_hash_table_lookup(t->copies, m->msgid);
	const char *sum = thread_rank(t, m)->sha256;
	guint i;

	if (!strcmp(sum, thread_rank(t, old)->sha256))
		return TRUE;
	for (i = 0; c && i < c->len; i++)
		if (!strcmp(sum, thread_rank(t, c->pdata[i])->sha256))
			return TRUE;
	return FALSE;
}

gint
thread_choose(struct thread *t, GPtrArray *cands)
{
	struct message *own =
	    cands->len
		? thread_get(t, ((struct message *)cands->pdata[0])->msgid)
		: NULL;
	struct copyrank best, r;
	gint k = -1;
	guint i;

	if (own && own->provisional)
		own = NULL;
	if (own)
		best = *thread_rank(t, own);
	for (i = 0; i < cands->len; i++) {
		copyrank_of(cands->pdata[i], &r);
		/* a local copy before the archive's, as better() */
		if ((k < 0 && !own) ||
		    (k < 0 && g_hash_table_contains(t->merged, own)) ||
		    copyrank_cmp(&r, &best) < 0) {
			best = r;
			k = i;
		}
	}
	return k;
}

GPtrArray *
thread_alternates(struct thread *t, const struct message *m)
{
	GPtrArray *c = g_hash_table_lookup(t->copies, m->msgid);
	GPtrArray *out = g_ptr_array_new();
	struct message *self = (struct message *)m;
	guint i;

	for (i = 0; c && i < c->len; i++) {
		struct message *o = c->pdata[i];

		if (g_hash_table_contains(t->merged, o) ==
			g_hash_table_contains(t->merged, self) &&
		    thread_rank(t, o)->listid == thread_rank(t, self)->listid)
			g_ptr_array_add(out, o);
	}
	return out;
}
