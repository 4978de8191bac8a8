/*
 * stitch.c - --rethread's run: ask, pick, join, stitch, cut. The asking is
 * source/'s and the rule series/'s; what is here is their order, and what
 * the user is told.
 */
#include "cli/stitch.h"
#include "series/rethread.h"
#include "mail/mbox.h"
#include "core/msgid.h"
#include "core/util.h"

#include <string.h>

/* "-": the ids, one a line, on standard input (no more than 64 KiB) */
#define STITCH_MAX_STDIN (64 << 10)

/* The lines of standard input, the empty ones left out (g_strfreev). */
static char **
stdin_lines(void)
{
	GError *e = NULL;
	GBytes *b = mbox_slurp("-", STITCH_MAX_STDIN, &e);
	g_auto(GStrv) lines = NULL;
	g_autofree char *text = NULL;
	GPtrArray *out;
	gsize n, i;
	const char *p;

	if (!b) {
		lore_err("--rethread -: %s", e->message);
		g_error_free(e);
		return NULL;
	}
	p = g_bytes_get_data(b, &n);
	text = g_strndup(p, n);
	lines = g_strsplit(text, "\n", -1);
	g_bytes_unref(b);
	out = g_ptr_array_new();
	for (i = 0; lines[i]; i++) {
		g_strstrip(lines[i]);
		if (*lines[i])
			g_ptr_array_add(out, g_strdup(lines[i]));
	}
	g_ptr_array_add(out, NULL);
	return (char **)g_ptr_array_free(out, FALSE);
}

int
stitch_ids(struct cli *c)
{
	g_auto(GStrv) args = NULL;
	GPtrArray *ids;
	guint i;

	if (!c->args || !c->args[0])
		return LORE_OK;
	if (!strcmp(c->args[0], "-") && !c->args[1]) {
		if (!(args = stdin_lines()))
			return LORE_EUSAGE;
	} else if (c->args[1]) {
		args = g_strdupv(c->args);
	} else {
		return LORE_OK;
	}
	if (g_strv_length(args) > RETHREAD_MAX_PATCHES + 1) {
		lore_err("--rethread: %u Message-IDs are more than a series of "
			 "%d patches and its cover letter",
			 g_strv_length(args), RETHREAD_MAX_PATCHES);
		return LORE_EUSAGE;
	}
	ids = g_ptr_array_new_with_free_func(g_free);
	for (i = 0; args[i]; i++) {
		char *id = msgid_from_arg(args[i]);

		if (!id) {
			g_autofree char *s = lore_term_safe(args[i], -1);

			lore_err("--rethread: '%s' is not a Message-ID or "
				 "archive URL",
				 s);
			g_ptr_array_unref(ids);
			return LORE_EUSAGE;
		}
		g_ptr_array_add(ids, id);
	}
	if (!ids->len) {
		lore_err("--rethread -: no Message-ID on standard input");
		g_ptr_array_unref(ids);
		return LORE_EUSAGE;
	}
	g_strfreev(c->args);
	c->args = g_new0(char *, 2);
	c->args[0] = g_strdup(ids->pdata[0]);
	g_ptr_array_add(ids, NULL);
	g_ptr_array_set_free_func(ids, NULL);
	c->rethread_ids = (char **)g_ptr_array_free(ids, FALSE);
	return LORE_OK;
}

/* The mail of @m's sender around @m's date, from every source that can. */
static struct thread *
find_around(struct gather *g, const struct message *m)
{
	struct source_query q = {m->from_email, m->date - RETHREAD_WINDOW,
				 m->date + RETHREAD_WINDOW};
	struct thread *found = thread_new();
	GError *e = NULL;
	int rc;

	rc = gather_find(g, &q, found, &e);
	if (rc != LORE_OK && rc != LORE_ENOTFOUND)
		lore_err("warning: --rethread: %s", e->message);
	g_clear_error(&e);
	return found;
}

/* Each mail's replies (the trailers given to it) join @t. */
static void
join_each(struct gather *g, struct thread *t, GPtrArray *ids,
	  const char *target)
{
	guint i;

	for (i = 0; i < ids->len; i++) {
		GError *e = NULL;

		if (!g_strcmp0(ids->pdata[i], target))
			continue;
		if (gather_join(g, ids->pdata[i], t, &e) != LORE_OK) {
			lore_err("warning: --rethread: the replies to a "
				 "patch were not read: %s",
				 e->message);
			g_clear_error(&e);
		}
	}
}

/* The series' mails, stitched under the first and @t cut to them. */
static void
stitch(struct thread *t, GPtrArray *ids, const char *which)
{
	rethread_stitch(t, ids);
	thread_prune(t, ids->pdata[0], FALSE);
	lore_info("Rethreaded: %u mails %s, as one series", ids->len, which);
}

/* b4's --rethread ID ID...: the mails named, their replies, stitched. */
static int
stitch_given(struct gather *g, struct thread *t, char **given)
{
	GPtrArray *want = g_ptr_array_new();
	GPtrArray *ids;
	guint i;

	for (i = 0; given[i]; i++)
		g_ptr_array_add(want, given[i]);
	join_each(g, t, want, given[0]);
	g_ptr_array_unref(want);
	ids = rethread_order(t, given);
	for (i = 0; given[i]; i++) {
		if (!thread_get(t, given[i])) {
			g_autofree char *s = lore_term_safe(given[i], -1);

			lore_err("warning: --rethread: <%s> was not found", s);
		}
	}
	if (ids->len)
		stitch(t, ids, "named with --rethread");
	g_ptr_array_unref(ids);
	return LORE_OK;
}

int
stitch_run(struct gather *g, struct choice *ch, struct thread *t,
	   const char *target, char **given)
{
	struct message *m = target ? thread_get(t, target) : NULL;
	g_autofree char *why = NULL, *id = NULL, *from = NULL;
	struct thread *found;
	GPtrArray *ids;

	if (given && given[0] && given[1])
		return stitch_given(g, t, given);
	if (!m || series_complete(choice_outline(ch, t), ch->o.use_version))
		return LORE_OK;
	id = lore_term_safe(target, -1);
	if (!rethread_wants(m, &why)) {
		lore_info("NOTE: --rethread: <%s> is not stitched: %s", id,
			  why);
		return LORE_OK;
	}
	found = find_around(g, m);
	ids = rethread_pick(m, found->msgs);
	from = lore_term_safe(m->from_email, -1);
	if (ids->len < 2) {
		lore_info("NOTE: --rethread: no other mail of <%s>'s series "
			  "from %s within an hour",
			  id, from);
		thread_free(found);
		g_ptr_array_unref(ids);
		return LORE_OK;
	}
	/* the picked mails come in as found; their replies after them */
	thread_merge(t, found);
	thread_free(found);
	join_each(g, t, ids, target);
	g_free(why);
	why = g_strdup_printf("from %s sent unthreaded", from);
	stitch(t, ids, why);
	g_ptr_array_unref(ids);
	return LORE_OK;
}
