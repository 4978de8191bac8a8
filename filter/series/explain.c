/*
 * explain.c - --explain, read off the series set once it is made: b4's
 * rules as series.c applies them (the version tag in the subject, v1
 * when there is none, an unversioned patch answering a versioned cover
 * letter taking its revision, the same sender's unversioned resend of a
 * single patch the revision after the highest, "Re:" mails being
 * replies), each said for the revision it decided, and each other
 * candidate with the option that takes it.
 */
#include "series/explain.h"
#include "core/say.h"
#include "core/util.h"

#include <string.h>

/* The first patch of @ser, the one whose subject told its revision. */
static const struct spatch *
first_patch(struct series *ser, int *present)
{
	const struct spatch *first = NULL;
	guint i;

	*present = 0;
	for (i = 1; i < ser->slots->len; i++) {
		const struct series_entry *e =
		    &g_array_index(ser->slots, struct series_entry, i);

		if (!e->p)
			continue;
		(*present)++;
		if (!first && !e->reroll_from)
			first = e->p;
	}
	return first;
}

/* How the revision of @ser was told from its mails. */
static void
how_told(struct series *ser, const struct spatch *p)
{
	if (!p)
		lore_say("    all its patches come from an earlier revision");
	else if (!p->revision_inferred)
		lore_say("    its subjects say v%d (\"%s\")", ser->revision,
			 p->msg->subject);
	else if (ser->revision == 1)
		lore_say("    its subjects carry no version tag: v1 (\"%s\")",
			 p->msg->subject);
	else if (p->counters_inferred && ser->expected == 1)
		lore_say("    an unversioned resend: the same sender's \"%s\", "
			 "sent after the revision before it, is the revision "
			 "after the highest the thread names (v%d)",
			 p->msg->subject, ser->revision);
	else
		lore_say("    unversioned patches answering v%d's cover letter "
			 "or first patch take its revision (\"%s\")",
			 ser->revision, p->msg->subject);
}

static void
chosen(struct series *ser, int asked)
{
	const struct spatch *cover = series_cover(ser), *p;
	int present;
	guint i, carried = 0;

	p = first_patch(ser, &present);
	if (asked)
		lore_say("  v%d: chosen, asked for with -v %d", ser->revision,
			 asked);
	else
		lore_say("  v%d: chosen, the latest revision in the thread "
			 "(-v %d takes it by name)",
			 ser->revision, ser->revision);
	how_told(ser, p);
	if (cover)
		lore_say("    cover letter <%s> (\"%s\")", cover->msg->msgid,
			 cover->msg->subject);
	else
		lore_say("    no cover letter");
	for (i = 1; i < ser->slots->len; i++)
		if (g_array_index(ser->slots, struct series_entry, i)
			.reroll_from)
			carried++;
	lore_say("    %d of %d patch%s, by %s <%s>", present, ser->expected,
		 ser->expected == 1 ? "" : "es", p ? p->msg->from_name : "",
		 p ? p->msg->from_email : "");
	if (carried)
		lore_say(
		    "    %u patch%s not sent again, carried from the revision "
		    "before (a partial re-roll)",
		    carried, carried == 1 ? "" : "es");
}

static void
other(struct series_set *s, int r)
{
	struct series *o = g_hash_table_lookup(s->revs, GINT_TO_POINTER(r));
	int present;
	const struct spatch *p = first_patch(o, &present);

	lore_say("  v%d: %d of %d patch%s%s: take it with -v %d%s", r, present,
		 o->expected, o->expected == 1 ? "" : "es",
		 p ? (p->revision_inferred ? ", no version tag" : "") : "", r,
		 present < o->expected ? " --allow-incomplete" : "");
}

/* Mails holding a diff that no revision took, and why. */
static void
left_out(struct series_set *s)
{
	guint i, n = 0;

	for (i = 0; i < s->all->len; i++) {
		const struct spatch *p = s->all->pdata[i];

		if (!p->has_diff || !p->reply)
			continue;
		if (!n++)
			lore_say("  not in any revision:");
		lore_say(
		    "    <%s> (\"%s\") holds a diff but is a reply (\"Re:\"): "
		    "give its Message-ID to take it alone, as git am would",
		    p->msg->msgid, p->msg->subject);
	}
}

void
explain_series(struct series_set *s, struct series *ser, int asked)
{
	GArray *revs = series_revisions(s);
	guint i;

	lore_info("---");
	lore_info("Explain: why this revision and these patches");
	chosen(ser, asked);
	for (i = revs->len; i-- > 0;) {
		int r = g_array_index(revs, int, i);

		if (r != ser->revision)
			other(s, r);
	}
	left_out(s);
	g_array_unref(revs);
}
