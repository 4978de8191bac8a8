/*
 * gatelinks.c - the gate's link checks, as checkpatch.pl asks them: a
 * Reported-by: is followed by the Closes: (or Link:) of the report, and
 * a Closes: or Link: is a URL (http or https), nothing else.
 */
#include "gate/gate-int.h"

#include <string.h>

static gboolean
is_url(const char *v)
{
	return g_str_has_prefix(v, "https://") ||
	       g_str_has_prefix(v, "http://");
}

static gboolean
is_link(const struct trailer *t)
{
	return gate_is(t, "closes") || gate_is(t, "link");
}

void
gate_check_links(struct gate_patch *p)
{
	guint i;

	gate_ran(p, GATE_C_LINKS, FALSE);
	for (i = 0; i < p->trailers->len; i++) {
		const struct trailer *t = p->trailers->pdata[i];

		if (gate_is(t, "reported-by") &&
		    (i + 1 == p->trailers->len ||
		     !is_link(p->trailers->pdata[i + 1])))
			gate_find(p, GATE_C_LINKS, GATE_NOTE,
				  "add Closes: with the report's URL after "
				  "it",
				  "Reported-by: %s is not followed by "
				  "Closes: (or Link:) to the report",
				  t->value);
		if (is_link(t) && !is_url(t->value))
			gate_find(p, GATE_C_LINKS, GATE_NOTE,
				  "give the http(s) URL of the report",
				  "%s: '%s' is not a URL", t->name, t->value);
	}
}
