/*
 * rethread.c - the rule that stitches an unthreaded series: one sender,
 * one short time, one [PREFIX vR i/N] shape (subject.h reads the
 * brackets as the series code does). Every step is linear in the
 * candidates, and what is kept is bounded by N.
 */
#include "series/rethread.h"
#include "mail/subject.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>

/* A mail's place in its series as its subject says. */
struct shape {
	char *prefix; /* the bracket words but i/N and vR, lower case */
	int revision, counter, expected;
};

static gboolean
is_counter_or_rev(const char *w)
{
	const char *p = w;

	if (*p == 'v' && g_ascii_isdigit(p[1])) {
		for (p++; g_ascii_isdigit(*p); p++)
			;
		return !*p;
	}
	while (g_ascii_isdigit(*p))
		p++;
	if (p == w || *p != '/' || !g_ascii_isdigit(p[1]))
		return FALSE;
	for (p++; g_ascii_isdigit(*p); p++)
		;
	return !*p;
}

/* The prefix words of @subject (before @title), normalised. */
static char *
prefix_of(const char *subject, const char *title)
{
	const char *end = strstr(subject, title);
	g_autofree char *head =
	    g_ascii_strdown(subject, end ? end - subject : -1);
	g_auto(GStrv) words = NULL;
	GString *out = g_string_new(NULL);
	guint i;

	/* "patchv2" is "patch v2" */
	words = g_strsplit_set(head, " \t,;[]", -1);
	for (i = 0; words[i]; i++) {
		const char *w = words[i];

		if (g_str_has_prefix(w, "patchv") && g_ascii_isdigit(w[6]))
			w = "patch";
		if (!*w || is_counter_or_rev(w))
			continue;
		g_string_append_printf(out, "%s%s", out->len ? " " : "", w);
	}
	return g_string_free(out, FALSE);
}

/* @m's shape, FALSE when it is a reply or has no i/N. */
static gboolean
shape_of(const struct message *m, struct shape *out)
{
	struct subject s;
	gboolean ok;

	memset(out, 0, sizeof(*out));
	if (!m->subject)
		return FALSE;
	subject_parse(m->subject, &s);
	ok = !s.reply && !s.counters_inferred;
	if (ok) {
		out->prefix = prefix_of(m->subject, s.title);
		out->revision = s.revision;
		out->counter = s.counter;
		out->expected = s.expected;
	}
	subject_clear(&s);
	return ok;
}

gboolean
rethread_wants(const struct message *m, char **why)
{
	struct shape sh;
	gboolean ok = shape_of(m, &sh);

	*why = NULL;
	if (!ok)
		*why = g_strdup("its subject has no [PATCH i/N]");
	else if (sh.expected < 2 || sh.counter > sh.expected)
		*why = g_strdup_printf("%d/%d is no series of several patches",
				       sh.counter, sh.expected);
	else if (sh.expected > RETHREAD_MAX_PATCHES)
		*why = g_strdup_printf("a series of %d patches is more than "
				       "the %d it gathers",
				       sh.expected, RETHREAD_MAX_PATCHES);
	else if (!m->from_email || !*m->from_email || m->date <= 0)
		*why = g_strdup("it has no sender address or no date");
	g_free(sh.prefix);
	return *why == NULL;
}

static gint64
distance(const struct message *a, const struct message *b)
{
	return a->date > b->date ? a->date - b->date : b->date - a->date;
}

/* Is @m, of shape @sh, a mail of @target's series (shape @want)? */
static gboolean
fits(const struct message *target, const struct shape *want,
     const struct message *m, const struct shape *sh)
{
	return sh->revision == want->revision &&
	       sh->expected == want->expected && sh->counter >= 0 &&
	       sh->counter <= sh->expected &&
	       !strcmp(sh->prefix, want->prefix) && m->from_email &&
	       !g_ascii_strcasecmp(m->from_email, target->from_email) &&
	       m->date > 0 && distance(m, target) <= RETHREAD_WINDOW &&
	       !m->in_reply_to && !m->refs->len;
}

GPtrArray *
rethread_pick(const struct message *target, GPtrArray *cands)
{
	GPtrArray *ids = g_ptr_array_new_with_free_func(g_free);
	struct shape want;
	const struct message **slot;
	int n, i;
	guint k;

	if (!shape_of(target, &want) || want.expected < 1 ||
	    want.expected > RETHREAD_MAX_PATCHES) {
		g_free(want.prefix);
		g_ptr_array_add(ids, g_strdup(target->msgid));
		return ids;
	}
	n = want.expected;
	slot = g_new0(const struct message *, n + 1);
	for (k = 0; k < cands->len; k++) {
		const struct message *m = cands->pdata[k];
		struct shape sh;

		if (m == target || !m->msgid || !shape_of(m, &sh))
			continue;
		if (fits(target, &want, m, &sh) &&
		    (!slot[sh.counter] ||
		     distance(m, target) < distance(slot[sh.counter], target)))
			slot[sh.counter] = m;
		g_free(sh.prefix);
	}
	/* the target holds its own place, whatever else claims it */
	if (want.counter >= 0 && want.counter <= n)
		slot[want.counter] = target;
	for (i = 0; i <= n; i++)
		if (slot[i])
			g_ptr_array_add(ids, g_strdup(slot[i]->msgid));
	g_free(slot);
	g_free(want.prefix);
	return ids;
}

/* A given mail and where its subject puts it. */
struct placed {
	const char *id;
	int counter; /* G_MAXINT: no i/N */
	guint given; /* its place in the order given */
};

static int
by_place(gconstpointer a, gconstpointer b)
{
	const struct placed *x = a, *y = b;

	if (x->counter != y->counter)
		return x->counter < y->counter ? -1 : 1;
	return x->given < y->given ? -1 : x->given > y->given;
}

GPtrArray *
rethread_order(struct thread *t, char **given)
{
	GArray *placed = g_array_new(FALSE, FALSE, sizeof(struct placed));
	GPtrArray *ids = g_ptr_array_new_with_free_func(g_free);
	GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
	guint i;

	for (i = 0; given[i]; i++) {
		struct message *m = thread_get(t, given[i]);
		struct placed p = {given[i], G_MAXINT, i};
		struct shape sh;

		if (!m || !g_hash_table_add(seen, given[i]))
			continue;
		if (shape_of(m, &sh))
			p.counter = sh.counter;
		g_free(sh.prefix);
		g_array_append_val(placed, p);
	}
	g_array_sort(placed, by_place);
	for (i = 0; i < placed->len; i++)
		g_ptr_array_add(
		    ids, g_strdup(g_array_index(placed, struct placed, i).id));
	g_array_free(placed, TRUE);
	g_hash_table_destroy(seen);
	return ids;
}

guint
rethread_stitch(struct thread *t, GPtrArray *ids)
{
	const char *root;
	guint i, linked = 0;

	if (!ids->len)
		return 0;
	root = ids->pdata[0];
	for (i = 1; i < ids->len; i++) {
		struct message *m = thread_get(t, ids->pdata[i]);

		if (!m || thread_parent(t, m))
			continue;
		message_set_in_reply_to(m, root);
		linked++;
	}
	return linked;
}
