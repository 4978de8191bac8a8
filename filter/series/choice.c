/*
 * choice.c - the series the run means. gather asks "enough?" each time
 * the thread grew; the outline is made once per state of the thread, and
 * the last one is handed on when the final thread holds the same messages
 * in the same order.
 */
#include "series/choice.h"
#include "series/newer.h"
#include "core/util.h"

#include <string.h>

/* The series of @t as the run wants them read. */
static struct series_set *
analyse(struct choice *c, struct thread *t, const char *target)
{
	struct series_set *s = series_analyse_for(t, target, c->o.sends);

	s->no_reroll = c->o.no_reroll;
	return s;
}

/* Forget the outline kept. */
static void
drop_outline(struct choice *c)
{
	series_set_free(c->outline);
	c->outline = NULL;
	g_free(c->outlined);
	c->outlined = NULL;
	c->outlined_len = 0;
}

/*
 * The outline of @t as it is: made again only when @t holds other
 * messages, or in another order, than when it was made (a source adds,
 * the cut drops, a source's copy replaces the piped one, settling moves
 * it last); comparing the pointers costs nothing next to an outline.
 */
static struct series_set *
outline_now(struct choice *c, struct thread *t)
{
	guint n = t->msgs->len;

	if (c->outline && c->outlined_len == n &&
	    !memcmp(c->outlined, t->msgs->pdata, n * sizeof(gpointer)))
		return c->outline;
	drop_outline(c);
	c->outline = analyse(c, t, NULL);
	c->outlined = g_memdup2(t->msgs->pdata, n * sizeof(gpointer));
	c->outlined_len = n;
	return c->outline;
}

/*
 * gather_need: is revision use_version complete? A "Re:" target that
 * holds a whole patch is one of its own (choice_make() takes it alone),
 * unless --parent asks for the series it answers; not when the piped
 * message is all there is (@alone): then only a whole series counts.
 */
static gboolean
enough(struct thread *t, const char *msgid, gboolean alone, void *data)
{
	struct choice *c = data;
	struct series_set *s = outline_now(c, t);

	return series_complete(s, c->o.use_version) ||
	       (!alone && !c->o.parent && series_reply_patch(s, msgid));
}

struct choice *
choice_new(const struct choice_opts *o)
{
	struct choice *c = g_new0(struct choice, 1);

	c->o = *o;
	c->need.enough = enough;
	c->need.data = c;
	return c;
}

void
choice_free(struct choice *c)
{
	if (!c)
		return;
	drop_outline(c);
	g_free(c);
}

struct series_set *
choice_outline(struct choice *c, struct thread *t)
{
	return outline_now(c, t);
}

/* -c/--use-newer: the newer revision's thread joins @t, @s is made anew. */
static int
use_newer(struct choice *c, struct gather *g, struct thread *t,
	  struct series_set **s)
{
	g_autofree char *id = NULL;
	GError *err = NULL;
	int rc;

	rc = newer_check(*s, g, c->o.offline, c->o.use_newer, &id);
	if (rc || !id)
		return rc;
	rc = gather_more(g, id, t, &err);
	if (rc) {
		lore_err_take(err);
		return rc;
	}
	/* a "Re:" patch taken alone stays one */
	g_free(id);
	id = g_strdup((*s)->reply_target);
	series_set_free(*s);
	*s = analyse(c, t, id);
	return LORE_OK;
}

int
choice_make(struct choice *c, struct gather *g, struct thread *t,
	    const char *target, struct series_set **out)
{
	struct series_set *s;

	choice_outline(c, t);
	s = g_steal_pointer(&c->outline);
	drop_outline(c);
	if (!c->o.parent && !c->o.no_parent && series_inner_patch(s, target)) {
		g_autofree char *id = lore_term_safe(target, -1);

		lore_info("NOTE: <%s> is a patch of its own inside another "
			  "series' thread: taken alone (--parent takes the "
			  "series it answers)",
			  id);
		thread_prune(t, target, TRUE);
		series_set_free(s);
		s = analyse(c, t, NULL);
	} else if (!c->o.parent && series_reply_patch(s, target)) {
		g_autofree char *id = lore_term_safe(target, -1);

		if (!c->o.no_parent)
			lore_info("NOTE: <%s> is a reply that holds a patch: "
				  "taken alone, as git am takes it (--parent "
				  "takes the series it answers)",
				  id);
		thread_prune(t, target, TRUE);
		series_set_free(s);
		s = analyse(c, t, target);
	}
	*out = s;
	if (c->o.check_newer || c->o.use_newer)
		return use_newer(c, g, t, out);
	return LORE_OK;
}
