/*
 * series.c - patch series assembly. The classification rules are b4's
 * (LoreMailbox.add_message and get_series), written anew: a message with a
 * diff is a patch at its i/N slot of revision vN (an unversioned patch
 * replying to a versioned cover inherits its revision), "0/N" is a cover
 * letter, "Re:" or a trailer-only follow-up is a reply. What replies
 * say is the trailers stage's (followup.h).
 */
#include "series/series.h"
#include "mail/body.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>

static void
spatch_free(struct spatch *p)
{
	subject_clear(&p->subj);
	g_free(p);
}

static void
series_free(struct series *ser)
{
	g_array_free(ser->slots, TRUE);
	g_free(ser->base_commit);
	g_free(ser);
}

static struct series *
series_new(int revision, int expected)
{
	struct series *ser = g_new0(struct series, 1);

	ser->revision = revision;
	ser->expected = expected;
	ser->slots = g_array_new(FALSE, TRUE, sizeof(struct series_entry));
	g_array_set_size(ser->slots, expected + 1);
	return ser;
}

static struct series_entry *
slot(struct series *ser, int i)
{
	return &g_array_index(ser->slots, struct series_entry, i);
}

static void
check_complete(struct series *ser)
{
	guint i;

	ser->complete = ser->slots->len > 1;
	for (i = 1; i < ser->slots->len; i++)
		if (!slot(ser, i)->p)
			ser->complete = FALSE;
}

struct spatch *
series_spatch_of(struct series_set *s, const struct message *m)
{
	return m ? g_hash_table_lookup(s->by_msg, m) : NULL;
}

static void
warn(struct series_set *s, char *text)
{
	g_ptr_array_add(s->warnings, text);
}

/*
 * "Re: [PATCH v2 3/5] title" taken as the patch it holds: the revision its
 * brackets say, but a series of one (its i/N is the series it answers).
 */
static void
reply_as_patch(struct spatch *p)
{
	const char *rest = p->msg->subject;
	struct subject sub;
	guint depth = 0;

	subject_parse(rest, &sub);
	while (sub.reply && (rest = strchr(rest, ':')) && depth++ < 16) {
		subject_clear(&sub);
		subject_parse(++rest, &sub);
	}
	subject_clear(&p->subj);
	p->subj = sub;
	p->subj.counter = p->subj.expected = 1;
	p->subj.counters_inferred = TRUE;
	p->reply = FALSE;
	p->revision = sub.revision;
	p->revision_inferred = sub.revision_inferred;
	p->counter = p->expected = 1;
	p->counters_inferred = TRUE;
}

/*
 * Trailers are the trailers stage's; it is asked (@sends) only about a
 * mail that answers another without "Re:" and holds no diff. The
 * trailers of "Re:" replies are not read: they never change which
 * revisions exist or which slots they fill, and reading them is most of
 * the classification's cost (the trailers stage reads them). A "Re:" mail
 * holding a diff is a patch only as @target, the mail the user pointed at
 * (git am applies it); elsewhere it is a follow-up, as in b4.
 */
static struct spatch *
classify(struct message *m, const char *target, series_sends_fn sends)
{
	struct spatch *p = g_new0(struct spatch, 1);
	const char *body;

	p->msg = m;
	subject_parse(m->subject, &p->subj);
	p->revision = p->subj.revision;
	p->counter = p->subj.counter;
	p->expected = p->subj.expected;
	p->revision_inferred = p->subj.revision_inferred;
	p->counters_inferred = p->subj.counters_inferred;
	p->reply = p->subj.reply;
	/* [PATCH 6/5]: a late addition */
	if (p->counter > p->expected)
		p->expected = p->counter;
	body = message_body(m);
	body_scan(body, &p->has_diff, &p->has_diffstat);
	/* a follow-up without "Re:" that carries trailers and no diff; never
	 * an explicit "0/N" cover letter answering the previous revision.
	 * Patches can be neither, so their (long) bodies are not searched. */
	if (!p->reply &&
	    (!m->in_reply_to || p->has_diff ||
	     (p->counter == 0 && !p->counters_inferred && p->has_diffstat)))
		return p;
	if (p->reply) {
		if (target && p->has_diff && p->subj.reply &&
		    !g_strcmp0(m->msgid, target))
			reply_as_patch(p);
		return p;
	}
	p->reply = sends && sends(m, body);
	return p;
}

static struct series *
get_rev(struct series_set *s, int rev)
{
	return g_hash_table_lookup(s->revs, GINT_TO_POINTER(rev));
}

static void
find_base(struct series *ser, struct spatch *cover)
{
	const char *b = message_body(cover->msg), *l;
	size_t pos = 0, len = strlen(b), ll;

	while (lore_next_line(b, len, &pos, &l, &ll)) {
		const char *h = l + 12;
		size_t n;

		if (!lore_has_prefix_ci(l, ll, "base-commit:"))
			continue;
		while (*h == ' ' || *h == '\t')
			h++;
		n = strspn(h, "0123456789abcdefABCDEF");
		if (n >= 7) {
			g_free(ser->base_commit);
			ser->base_commit = g_strndup(h, n);
		}
		return;
	}
}

static void
add_patch(struct series_set *s, struct series *ser, struct spatch *p)
{
	struct series_entry *e;

	if ((int)ser->slots->len < p->expected + 1)
		g_array_set_size(ser->slots, p->expected + 1);
	ser->expected = p->expected;
	e = slot(ser, p->counter);
	if (e->p) {
		struct spatch *o = e->p;

		if (o->reply ||
		    (o->counters_inferred && !p->counters_inferred)) {
			e->p = p;
		} else if (o != p) {
			warn(s, g_strdup_printf(
				    "v%d %d/%d was sent more than once; using "
				    "the first (<%s>), not <%s>",
				    ser->revision, p->counter, p->expected,
				    o->msg->msgid, p->msg->msgid));
		}
	} else {
		e->p = p;
		e->revision = ser->revision;
	}
}

static void
add_message(struct series_set *s, struct spatch *p, GPtrArray *resent)
{
	if (p->reply)
		return;
	if (p->counter == 0 && (!p->counters_inferred || p->has_diffstat)) {
		if (g_hash_table_contains(s->covers,
					  GINT_TO_POINTER(p->revision)))
			warn(s,
			     g_strdup_printf(
				 "more than one v%d cover letter; using <%s>",
				 p->revision, p->msg->msgid));
		g_hash_table_insert(s->covers, GINT_TO_POINTER(p->revision), p);
		return;
	}
	if (!p->has_diff)
		return;
	if (!get_rev(s, p->revision) && p->revision_inferred) {
		/* "[PATCH 2/3]" answering a "[PATCH v3 0/3]" is v3 */
		struct spatch *irt = series_spatch_of(
		    s, thread_get(s->thread, p->msg->in_reply_to));

		if (irt && irt->has_diffstat && !irt->has_diff)
			p->revision = irt->revision;
		else if (irt && p->counter > 0 && irt->has_diff &&
			 irt->counter == 1)
			p->revision = irt->revision;
	}
	if (!get_rev(s, p->revision))
		g_hash_table_insert(s->revs, GINT_TO_POINTER(p->revision),
				    series_new(p->revision, p->expected));
	/* The same single patch sent again without a "v2": a new revision,
	 * numbered once every revision the thread names is known */
	if (p->counter == 1 && p->counters_inferred && p->subj.patch &&
	    !p->subj.resend) {
		struct spatch *o = slot(get_rev(s, p->revision), 1)->p;

		if (get_rev(s, p->revision)->slots->len > 1 && o &&
		    o->counters_inferred &&
		    !g_ascii_strcasecmp(o->msg->from_email,
					p->msg->from_email) &&
		    o->msg->date < p->msg->date) {
			g_ptr_array_add(resent, p);
			return;
		}
	}
	add_patch(s, get_rev(s, p->revision), p);
}

int
series_by_date(gconstpointer a, gconstpointer b)
{
	const struct spatch *x = *(struct spatch *const *)a;
	const struct spatch *y = *(struct spatch *const *)b;

	return (x->msg->date > y->msg->date) - (x->msg->date < y->msg->date);
}

/*
 * Place every message. An unversioned resend gets the revision after the
 * highest one the thread has, in the order they were sent: numbered as
 * they come, a resend could take the number of a "[PATCH v3]" met later
 * and overwrite it.
 */
static void
add_messages(struct series_set *s)
{
	GPtrArray *resent = g_ptr_array_new();
	int top = 0;
	guint i;

	for (i = 0; i < s->all->len; i++)
		add_message(s, s->all->pdata[i], resent);
	g_ptr_array_sort(resent, series_by_date);
	if (resent->len) {
		GArray *revs = series_revisions(s);

		top = g_array_index(revs, int, revs->len - 1);
		g_array_unref(revs);
	}
	for (i = 0; i < resent->len; i++) {
		struct spatch *p = resent->pdata[i];

		p->revision = ++top;
		g_hash_table_insert(s->revs, GINT_TO_POINTER(p->revision),
				    series_new(p->revision, p->expected));
		add_patch(s, get_rev(s, p->revision), p);
	}
	g_ptr_array_free(resent, TRUE);
}

struct series_set *
series_analyse(struct thread *t, series_sends_fn sends)
{
	return series_analyse_for(t, NULL, sends);
}

struct series_set *
series_analyse_for(struct thread *t, const char *target, series_sends_fn sends)
{
	struct series_set *s = g_new0(struct series_set, 1);
	guint i;

	s->thread = t;
	s->sends = sends;
	s->reply_target = g_strdup(target);
	s->all = g_ptr_array_new_with_free_func((GDestroyNotify)spatch_free);
	s->by_msg = g_hash_table_new(NULL, NULL);
	s->revs = g_hash_table_new_full(NULL, NULL, NULL,
					(GDestroyNotify)series_free);
	s->covers = g_hash_table_new(NULL, NULL);
	s->warnings = g_ptr_array_new_with_free_func(g_free);
	for (i = 0; i < t->msgs->len; i++) {
		struct message *m = t->msgs->pdata[i];
		const GPtrArray *split = message_split(m);
		guint k;

		/* several patches attached to one mail: the mails made of it,
		 * the first (its cover letter) standing for it in the thread,
		 * so that replies to the mail are replies to the cover */
		for (k = 0; split && k < split->len; k++) {
			struct spatch *p =
			    classify(split->pdata[k], target, sends);

			g_ptr_array_add(s->all, p);
			g_hash_table_insert(s->by_msg, p->msg, p);
			if (!k)
				g_hash_table_insert(s->by_msg, m, p);
		}
		if (!split) {
			struct spatch *p = classify(m, target, sends);

			g_ptr_array_add(s->all, p);
			g_hash_table_insert(s->by_msg, p->msg, p);
		}
	}
	add_messages(s);
	return s;
}

void
series_set_free(struct series_set *s)
{
	if (!s)
		return;
	g_hash_table_destroy(s->revs);
	g_hash_table_destroy(s->covers);
	g_hash_table_destroy(s->by_msg);
	g_ptr_array_free(s->warnings, TRUE);
	g_ptr_array_free(s->all, TRUE);
	g_free(s->reply_target);
	g_free(s);
}

static int
cmp_int(gconstpointer a, gconstpointer b)
{
	return *(const int *)a - *(const int *)b;
}

GArray *
series_revisions(struct series_set *s)
{
	GArray *a = g_array_new(FALSE, FALSE, sizeof(int));
	GHashTableIter it;
	gpointer k;

	g_hash_table_iter_init(&it, s->revs);
	while (g_hash_table_iter_next(&it, &k, NULL)) {
		int r = GPOINTER_TO_INT(k);

		g_array_append_val(a, r);
	}
	g_array_sort(a, cmp_int);
	return a;
}

/* Does @p answer a patch with its own i/N, somewhere up its chain? */
static gboolean
rerolls_same_slot(struct series_set *s, struct spatch *p)
{
	struct spatch *pp =
	    series_spatch_of(s, thread_get(s->thread, p->msg->in_reply_to));
	guint depth = 0;

	while (pp && depth++ < 10000) {
		if (pp->counter == p->counter && pp->expected == p->expected)
			return TRUE;
		pp = series_spatch_of(
		    s, thread_get(s->thread, pp->msg->in_reply_to));
	}
	return FALSE;
}

static void prepare(struct series_set *s, struct series *ser, int depth);

/* Only "v3 2/3" re-sent, as a reply to "v2 2/3": take the rest from v2. */
static void
partial_reroll(struct series_set *s, struct series *ser, int depth)
{
	struct series *prev = get_rev(s, ser->revision - 1);
	guint i;

	if (ser->revision <= 1 || !prev)
		return;
	prepare(s, prev, depth + 1);
	for (i = 0; i < ser->slots->len; i++) {
		struct series_entry *e = slot(ser, i);

		if (e->p && !rerolls_same_slot(s, e->p))
			return;
	}
	for (i = 0; i < ser->slots->len && i < prev->slots->len; i++) {
		struct series_entry *e = slot(ser, i), *pe = slot(prev, i);

		if (!pe->p)
			continue;
		if (!e->p) {
			e->p = pe->p;
			e->revision = ser->revision;
			e->reroll_from =
			    pe->reroll_from ? pe->reroll_from : prev->revision;
		} else {
			e->reroll_from = ser->revision;
		}
	}
	check_complete(ser);
	if (ser->complete) {
		ser->partial_reroll = TRUE;
		warn(s, g_strdup_printf("v%d is a partial re-roll: the patches "
					"it did not re-send are taken from v%d",
					ser->revision, prev->revision));
	}
}

static void
find_cover(struct series_set *s, struct series *ser)
{
	struct spatch *c =
	    g_hash_table_lookup(s->covers, GINT_TO_POINTER(ser->revision));
	guint i;

	if (c) {
		slot(ser, 0)->p = c;
		slot(ser, 0)->revision = ser->revision;
	}
	if (slot(ser, 0)->p)
		return;
	/*
	 * No 0/N: a message a patch answers, from the same author, with no
	 * diff is the cover letter when it has a diffstat, or when it is the
	 * thread's root as sent (b4 0.16's "naked" cover letter: no 0/N, no
	 * diffstat); a bug report by someone else the patch answers is not.
	 */
	for (i = 1; i < ser->slots->len; i++) {
		struct spatch *p = slot(ser, i)->p, *pot;

		if (!p || !p->msg->in_reply_to)
			continue;
		pot = series_spatch_of(
		    s, thread_get(s->thread, p->msg->in_reply_to));
		if (!pot || pot->has_diff)
			continue;
		if (!pot->reply &&
		    !g_ascii_strcasecmp(pot->msg->from_email,
					p->msg->from_email) &&
		    (pot->has_diffstat ||
		     (!pot->msg->in_reply_to && !pot->msg->refs->len))) {
			slot(ser, 0)->p = pot;
			slot(ser, 0)->revision = ser->revision;
			return;
		}
	}
}

static void
prepare(struct series_set *s, struct series *ser, int depth)
{
	if (ser->prepared || depth > 64)
		return;
	ser->prepared = TRUE;
	check_complete(ser);
	find_cover(s, ser);
	if (!ser->complete && !s->no_reroll)
		partial_reroll(s, ser, depth);
	if (slot(ser, 0)->p)
		find_base(ser, slot(ser, 0)->p);
}

/* Revision @revision (0: the latest), its slots and cover found. */
static struct series *
get_prepared(struct series_set *s, int revision)
{
	struct series *ser;

	if (revision <= 0) {
		GArray *r = series_revisions(s);

		revision = r->len ? g_array_index(r, int, r->len - 1) : 0;
		g_array_unref(r);
	}
	ser = get_rev(s, revision);
	if (ser)
		prepare(s, ser, 0);
	return ser;
}

gboolean
series_complete(struct series_set *s, int revision)
{
	struct series *ser = get_prepared(s, revision);

	return ser && ser->complete;
}

struct series *
series_get(struct series_set *s, int revision)
{
	return get_prepared(s, revision);
}

struct spatch *
series_cover(struct series *ser)
{
	return slot(ser, 0)->p;
}

GArray *
series_missing(struct series *ser)
{
	GArray *a = g_array_new(FALSE, FALSE, sizeof(int));
	int i;

	for (i = 1; i < (int)ser->slots->len; i++)
		if (!slot(ser, i)->p)
			g_array_append_val(a, i);
	return a;
}

/* The first ancestor of @p that is not a reply, or NULL. */
static struct spatch *
answered_patch(struct series_set *s, const struct spatch *p)
{
	struct spatch *q =
	    series_spatch_of(s, thread_parent(s->thread, p->msg));
	guint depth = 0;

	while (q && q->reply && depth++ < 10000)
		q = series_spatch_of(s, thread_parent(s->thread, q->msg));
	return q && !q->reply ? q : NULL;
}

gboolean
series_inner_patch(struct series_set *s, const char *msgid)
{
	struct spatch *p = series_spatch_of(s, thread_get(s->thread, msgid));
	struct spatch *q = p ? answered_patch(s, p) : NULL;
	struct series *own;
	guint i;

	if (!p || p->reply || !p->has_diff || !p->counters_inferred || !q)
		return FALSE;
	/* what it answers is the cover letter of its own series (a naked
	 * one: no 0/N), not another series */
	own = get_prepared(s, p->revision);
	if (own && slot(own, 0)->p == q && (int)own->slots->len > p->counter &&
	    slot(own, p->counter)->p == p)
		return FALSE;
	/* the same title as a patch with its i/N, or as a patch of another
	 * revision ([PATCH v2] answering v1's [PATCH]): a revision of that
	 * patch, never one of its own */
	for (i = 0; i < s->all->len; i++) {
		const struct spatch *o = s->all->pdata[i];

		if (o != p && o->has_diff && !o->reply &&
		    (!o->counters_inferred || o->revision != p->revision) &&
		    !g_ascii_strcasecmp(o->subj.title, p->subj.title))
			return FALSE;
	}
	return TRUE;
}

gboolean
series_reply_patch(struct series_set *s, const char *msgid)
{
	struct spatch *p = series_spatch_of(s, thread_get(s->thread, msgid));

	return p && p->reply && p->subj.reply && p->has_diff;
}
