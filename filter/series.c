/*
 * series.c - patch series assembly. The classification rules are b4's
 * (LoreMailbox.add_message and get_series), written anew: a message with a
 * diff is a patch at its i/N slot of revision vN (an unversioned patch
 * replying to a versioned cover inherits its revision), "0/N" is a cover
 * letter, "Re:" or a trailer-only follow-up is a reply. Trailers from
 * replies go up the reply chain to the first patch or cover letter.
 */
#include "series.h"
#include "body.h"
#include "patchid.h"
#include "trailer.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static void
spatch_free(struct spatch *p)
{
	subject_clear(&p->subj);
	if (p->own)
		g_ptr_array_free(p->own, TRUE);
	g_ptr_array_free(p->followups, TRUE);
	g_free(p->patchid);
	g_free(p);
}

static void
series_free(struct series *ser)
{
	g_array_free(ser->slots, TRUE);
	g_free(ser->base_commit);
	if (ser->carried) {
		guint i;

		/* pairs of (entry, trailer list): the lists are referenced */
		for (i = 1; i < ser->carried->len; i += 2)
			g_ptr_array_unref(ser->carried->pdata[i]);
		g_ptr_array_free(ser->carried, TRUE);
	}
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

static struct spatch *
spatch_of(struct series_set *s, const struct message *m)
{
	return m ? g_hash_table_lookup(s->by_msg, m) : NULL;
}

static struct spatch *
parent_of(struct series_set *s, const struct spatch *p)
{
	return spatch_of(s, thread_parent(s->thread, p->msg));
}

static const char *
patch_id(struct spatch *p)
{
	if (!p->patchid_done) {
		p->patchid = patchid_stable(message_body(p->msg));
		p->patchid_done = TRUE;
	}
	return p->patchid;
}

static void
warn(struct series_set *s, char *text)
{
	g_ptr_array_add(s->warnings, text);
}

/* With @trailers FALSE, the trailers of "Re:" replies are not read. */
static struct spatch *
classify(struct message *m, gboolean trailers)
{
	struct spatch *p = g_new0(struct spatch, 1);
	const char *body;

	p->msg = m;
	p->followups = g_ptr_array_new();
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
	p->has_diffstat = body_has_diffstat(body);
	p->has_diff = body_has_diff(body);
	/* a follow-up without "Re:" that carries trailers and no diff; never
	 * an explicit "0/N" cover letter answering the previous revision.
	 * Patches can be neither, so their (long) bodies are not searched. */
	if (!p->reply &&
	    (!m->in_reply_to || p->has_diff ||
	     (p->counter == 0 && !p->counters_inferred && p->has_diffstat)))
		return p;
	if (p->reply && !trailers)
		return p;
	p->own = trailer_from_reply(m, body);
	if (p->own->len)
		p->reply = TRUE;
	if (!p->reply) {
		g_ptr_array_free(p->own, TRUE);
		p->own = NULL;
	}
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

		if (o->reply || (o->counters_inferred && !p->counters_inferred)) {
			e->p = p;
		} else if (o != p) {
			warn(s, g_strdup_printf(
				   "v%d %d/%d was sent more than once; using the first (<%s>), not <%s>",
				   ser->revision, p->counter, p->expected,
				   o->msg->msgid, p->msg->msgid));
		}
	} else {
		e->p = p;
		e->revision = ser->revision;
	}
}

static void
add_message(struct series_set *s, struct spatch *p)
{
	struct series *ser;

	if (p->reply) {
		if (p->own && p->own->len)
			g_ptr_array_add(s->replies, p);
		return;
	}
	if (p->counter == 0 && (!p->counters_inferred || p->has_diffstat)) {
		if (g_hash_table_contains(s->covers, GINT_TO_POINTER(p->revision)))
			warn(s, g_strdup_printf(
				   "more than one v%d cover letter; using <%s>",
				   p->revision, p->msg->msgid));
		g_hash_table_insert(s->covers, GINT_TO_POINTER(p->revision), p);
		return;
	}
	if (!p->has_diff)
		return;
	if (!get_rev(s, p->revision) && p->revision_inferred) {
		/* "[PATCH 2/3]" answering a "[PATCH v3 0/3]" is v3 */
		struct spatch *irt = spatch_of(
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
	/* The same single patch sent again without a "v2": a new revision. */
	if (p->counter == 1 && p->counters_inferred && p->subj.patch &&
	    !p->subj.resend) {
		ser = get_rev(s, p->revision);
		if (ser->slots->len > 1) {
			struct spatch *o = slot(ser, 1)->p;

			if (o && o->counters_inferred &&
			    !g_ascii_strcasecmp(o->msg->from_email,
						p->msg->from_email) &&
			    o->msg->date < p->msg->date) {
				p->revision = g_hash_table_size(s->revs) + 1;
				g_hash_table_insert(
					s->revs, GINT_TO_POINTER(p->revision),
					series_new(p->revision, p->expected));
			}
		}
	}
	add_patch(s, get_rev(s, p->revision), p);
}

/*
 * The patch or cover letter reply @r answers: its first ancestor that is
 * not a reply. Answers are memoised for every reply on the way up, so a
 * chain of n replies costs O(n) in all, not O(n^2); a reference cycle
 * (a message met twice) ends the walk with no answer.
 */
static struct spatch *
answered(struct series_set *s, struct spatch *r, GHashTable *memo,
	 GHashTable *on_path, GPtrArray *path)
{
	struct spatch *p = parent_of(s, r), *found = NULL;
	gpointer v;
	guint i;

	g_hash_table_remove_all(on_path);
	g_ptr_array_set_size(path, 0);
	g_hash_table_add(on_path, r);
	while (p) {
		if (!p->reply) {
			found = p;
			break;
		}
		if (g_hash_table_lookup_extended(memo, p, NULL, &v)) {
			found = v;
			break;
		}
		if (!g_hash_table_add(on_path, p))
			break;
		g_ptr_array_add(path, p);
		p = parent_of(s, p);
	}
	for (i = 0; i < path->len; i++)
		g_hash_table_insert(memo, path->pdata[i], found);
	return found;
}

/* Replies by their Date; an unknown date (0) counts as the oldest. */
static int
by_date(gconstpointer a, gconstpointer b)
{
	const struct spatch *x = *(struct spatch *const *)a;
	const struct spatch *y = *(struct spatch *const *)b;

	return (x->msg->date > y->msg->date) - (x->msg->date < y->msg->date);
}

/*
 * Follow the reply chain up to the patch or cover letter it answers.
 * Trailers are taken in the order the replies were sent (their Date;
 * GLib's sort is stable, so equal dates keep the thread's order): the
 * same series then gets the same trailers in the same order from an mbox,
 * a maildir (whose file names need not sort in delivery order), notmuch
 * or the archive.
 */
static void
attach_replies(struct series_set *s)
{
	GHashTable *memo = g_hash_table_new(NULL, NULL);
	GHashTable *on_path = g_hash_table_new(NULL, NULL);
	GPtrArray *path = g_ptr_array_new();
	guint i, k;

	g_ptr_array_sort(s->replies, by_date);
	for (i = 0; i < s->replies->len; i++) {
		struct spatch *r = s->replies->pdata[i];
		struct spatch *p = answered(s, r, memo, on_path, path);

		for (k = 0; k < r->own->len; k++) {
			struct trailer *t = r->own->pdata[k];

			if (!s->sloppy && !trailer_sender_ok(t, r->msg))
				g_ptr_array_add(s->mismatches, t);
			else if (p)
				g_ptr_array_add(p->followups, t);
		}
	}
	g_ptr_array_free(path, TRUE);
	g_hash_table_destroy(on_path);
	g_hash_table_destroy(memo);
}

static struct series_set *
analyse(struct thread *t, gboolean sloppy, gboolean trailers)
{
	struct series_set *s = g_new0(struct series_set, 1);
	guint i;

	s->thread = t;
	s->sloppy = sloppy;
	s->all = g_ptr_array_new_with_free_func((GDestroyNotify)spatch_free);
	s->by_msg = g_hash_table_new(NULL, NULL);
	s->revs = g_hash_table_new_full(NULL, NULL, NULL,
					(GDestroyNotify)series_free);
	s->covers = g_hash_table_new(NULL, NULL);
	s->replies = g_ptr_array_new();
	s->warnings = g_ptr_array_new_with_free_func(g_free);
	s->mismatches = g_ptr_array_new();
	for (i = 0; i < t->msgs->len; i++) {
		struct spatch *p = classify(t->msgs->pdata[i], trailers);

		g_ptr_array_add(s->all, p);
		g_hash_table_insert(s->by_msg, p->msg, p);
	}
	for (i = 0; i < s->all->len; i++)
		add_message(s, s->all->pdata[i]);
	if (trailers)
		attach_replies(s);
	return s;
}

struct series_set *
series_analyse(struct thread *t, gboolean sloppy)
{
	return analyse(t, sloppy, TRUE);
}

/*
 * A reply's trailers never change which revisions exist or which slots
 * they fill; only follow-ups need them, and reading them is most of the
 * classification's cost.
 */
struct series_set *
series_outline(struct thread *t)
{
	return analyse(t, FALSE, FALSE);
}

void
series_set_free(struct series_set *s)
{
	if (!s)
		return;
	g_hash_table_destroy(s->revs);
	g_hash_table_destroy(s->covers);
	g_hash_table_destroy(s->by_msg);
	g_ptr_array_free(s->replies, TRUE);
	g_ptr_array_free(s->warnings, TRUE);
	g_ptr_array_free(s->mismatches, TRUE);
	g_ptr_array_free(s->all, TRUE);
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
	struct spatch *pp = spatch_of(s, thread_get(s->thread,
						    p->msg->in_reply_to));
	guint depth = 0;

	while (pp && depth++ < 10000) {
		if (pp->counter == p->counter && pp->expected == p->expected)
			return TRUE;
		pp = spatch_of(s, thread_get(s->thread, pp->msg->in_reply_to));
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
			e->reroll_from = pe->reroll_from ? pe->reroll_from
							 : prev->revision;
		} else {
			e->reroll_from = ser->revision;
		}
	}
	check_complete(ser);
	if (ser->complete) {
		ser->partial_reroll = TRUE;
		warn(s, g_strdup_printf(
			   "v%d is a partial re-roll: the patches it did not re-send are taken from v%d",
			   ser->revision, prev->revision));
	}
}

static void
find_cover(struct series_set *s, struct series *ser)
{
	struct spatch *c = g_hash_table_lookup(s->covers,
					       GINT_TO_POINTER(ser->revision));
	guint i;

	if (c) {
		slot(ser, 0)->p = c;
		slot(ser, 0)->revision = ser->revision;
	}
	if (slot(ser, 0)->p)
		return;
	/* no 0/N: a message the patches answer, from the same author,
	 * with a diffstat and no diff, is the cover letter */
	for (i = 1; i < ser->slots->len; i++) {
		struct spatch *p = slot(ser, i)->p, *pot;

		if (!p || !p->msg->in_reply_to)
			continue;
		pot = spatch_of(s, thread_get(s->thread, p->msg->in_reply_to));
		if (pot && pot->has_diffstat && !pot->has_diff && !pot->reply &&
		    !g_ascii_strcasecmp(pot->msg->from_email,
					p->msg->from_email)) {
			slot(ser, 0)->p = pot;
			slot(ser, 0)->revision = ser->revision;
		}
		break;
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
	if (!ser->complete)
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
	struct series *ser = get_prepared(s, revision);
	guint i;

	if (!ser)
		return NULL;
	revision = ser->revision;
	/* trailers given to an identical patch of another revision */
	if (!ser->carried) {
		GHashTable *by_id = g_hash_table_new_full(
			g_str_hash, g_str_equal, NULL,
			(GDestroyNotify)g_ptr_array_unref);

		ser->carried = g_ptr_array_new();
		for (i = 0; i < s->all->len; i++) {
			struct spatch *p = s->all->pdata[i];
			const char *pid;

			if (p->reply || !p->has_diff || p->revision == revision ||
			    !p->followups->len || !(pid = patch_id(p)))
				continue;
			if (!g_hash_table_contains(by_id, pid))
				g_hash_table_insert(by_id, (gpointer)pid,
						    g_ptr_array_new());
			g_ptr_array_extend(g_hash_table_lookup(by_id, pid),
					   p->followups, NULL, NULL);
		}
		if (g_hash_table_size(by_id)) {
			for (i = 1; i < ser->slots->len; i++) {
				struct series_entry *e = slot(ser, i);
				const char *pid;
				GPtrArray *c;

				if (!e->p || !(pid = patch_id(e->p)) ||
				    !(c = g_hash_table_lookup(by_id, pid)))
					continue;
				g_ptr_array_add(ser->carried, e);
				g_ptr_array_add(ser->carried,
						g_ptr_array_ref(c));
			}
		}
		/* ser->carried holds its own references to the lists it uses */
		g_hash_table_destroy(by_id);
	}
	return ser;
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

GPtrArray *
series_followups(struct series_set *s, struct series *ser,
		 const struct series_entry *e)
{
	GPtrArray *out = g_ptr_array_new();
	struct spatch *cover = slot(ser, 0)->p;
	guint i;

	(void)s;
	if (!e->p)
		return out;
	g_ptr_array_extend(out, e->p->followups, NULL, NULL);
	for (i = 0; i + 1 < ser->carried->len; i += 2) {
		const struct series_entry *ce = ser->carried->pdata[i];

		if (ce->p == e->p)
			g_ptr_array_extend(out, ser->carried->pdata[i + 1],
					   NULL, NULL);
	}
	if (cover && cover != e->p)
		g_ptr_array_extend(out, cover->followups, NULL, NULL);
	return out;
}

GHashTable *
series_cherrypick(struct series *ser, const char *spec, const char *msgid,
		  GError **err)
{
	GHashTable *set = g_hash_table_new(NULL, NULL);
	int upper = ser->slots->len - 1;
	g_auto(GStrv) parts = NULL;
	guint i;

	if (!strcmp(spec, "_")) {
		for (i = 1; i < ser->slots->len; i++) {
			struct spatch *p = slot(ser, i)->p;

			if (p && msgid && !strcmp(p->msg->msgid, msgid))
				g_hash_table_add(set, GINT_TO_POINTER(i));
		}
		if (!g_hash_table_size(set)) {
			g_set_error(err, LORE_ERROR, LORE_ENOTFOUND,
				    "the given message is not a patch of the series; cannot cherry-pick it");
			g_hash_table_destroy(set);
			return NULL;
		}
		return set;
	}
	parts = g_strsplit(spec, ",", -1);
	for (i = 0; parts[i]; i++) {
		char *p = g_strstrip(parts[i]), *dash, *e1, *e2;
		long lo, hi;

		if (!*p)
			continue;
		dash = strchr(p, '-');
		lo = strtol(p, &e1, 10);
		if (e1 == p)
			goto bad;
		if (dash) {
			if (dash[1] == '\0') {
				hi = upper;
			} else {
				hi = strtol(dash + 1, &e2, 10);
				if (*e2)
					goto bad;
			}
			if (e1 != dash)
				goto bad;
		} else {
			if (*e1)
				goto bad;
			hi = lo;
		}
		if (lo < 1 || hi < lo)
			goto bad;
		for (; lo <= hi && lo <= upper; lo++)
			g_hash_table_add(set, GINT_TO_POINTER((int)lo));
	}
	return set;
bad:
	g_set_error(err, LORE_ERROR, LORE_EUSAGE,
		    "bad --cherry-pick range '%s' (expected e.g. 1-3,5,7-)", spec);
	g_hash_table_destroy(set);
	return NULL;
}
