/* --rethread's rule: which mails make one series with the target, and the
 * archive's query for them (table-driven). */
#include "series/rethread.h"
#include "source/lore.h"
#include "tap.h"

#include <string.h>

/* A mail of its own: no In-Reply-To, no References. */
static struct message *
mail(const char *id, const char *from, const char *subject, gint64 date)
{
	g_autofree char *raw =
	    g_strdup_printf("From: X <%s>\nSubject: %s\nMessage-ID: <%s>\n"
			    "Date: Tue, 2 Jan 2024 10:00:00 +0000\n\nbody\n",
			    from, subject, id);
	struct message *m = message_parse(raw, strlen(raw), NULL);

	m->date = date;
	return m;
}

#define T0 1704189600 /* 2024-01-02 10:00:00 UTC */

static const struct {
	const char *id, *from, *subject;
	gint64 date;
} cands[] = {
    {"c0", "pat@example.com", "[PATCH net v2 0/3] part", T0},
    {"c1", "PAT@example.com", "[PATCH net v2 1/3] one", T0 + 1},
    {"c3", "pat@example.com", "[PATCH net v2 3/3] three", T0 + 3},
    {"c3-far", "pat@example.com", "[PATCH net v2 3/3] again", T0 + 1800},
    {"late", "pat@example.com", "[PATCH net v2 1/3] one", T0 + 3601},
    {"other-sender", "eve@example.com", "[PATCH net v2 1/3] one", T0 + 1},
    {"prefix", "pat@example.com", "[PATCH net-next v2 1/3] one", T0 + 1},
    {"rev", "pat@example.com", "[PATCH net v3 1/3] one", T0 + 1},
    {"total", "pat@example.com", "[PATCH net v2 1/4] one", T0 + 1},
    {"reply", "pat@example.com", "Re: [PATCH net v2 1/3] one", T0 + 1},
    {"nocount", "pat@example.com", "[PATCH net v2] one", T0 + 1},
};

static const struct {
	const char *subject;
	gboolean ok;
} wants[] = {
    {"[PATCH 2/3] x", TRUE},	  {"[PATCH 0/2] x", TRUE},
    {"[PATCH] x", FALSE},	  {"[PATCH 1/1] x", FALSE},
    {"Re: [PATCH 2/3] x", FALSE}, {"[PATCH 1/5000] x", FALSE},
    {"[PATCH 1/200] x", TRUE},	  {"[PATCH 1/201] x", FALSE},
};

int
main(void)
{
	struct message *target =
	    mail("t2", "pat@example.com", "[PATCHv2 net 2/3] two", T0 + 2);
	GPtrArray *all =
	    g_ptr_array_new_with_free_func((GDestroyNotify)message_free);
	struct source_query q = {"pat@example.com", T0 - 3600, T0 + 3600};
	g_autofree char *query = lore_find_query(&q);
	GPtrArray *ids;
	GString *got = g_string_new(NULL);
	unsigned i;

	for (i = 0; i < G_N_ELEMENTS(cands); i++)
		g_ptr_array_add(all, mail(cands[i].id, cands[i].from,
					  cands[i].subject, cands[i].date));
	ids = rethread_pick(target, all);
	for (i = 0; i < ids->len; i++)
		g_string_append_printf(got, "%s ", (char *)ids->pdata[i]);
	tap_is_str(got->str, "c0 c1 t2 c3 ",
		   "the series' mails, cover first, the nearest of two 3/3");
	for (i = 0; i < G_N_ELEMENTS(wants); i++) {
		struct message *m =
		    mail("w", "pat@example.com", wants[i].subject, T0);
		g_autofree char *why = NULL;

		tap_ok(rethread_wants(m, &why) == wants[i].ok, "wants '%s'",
		       wants[i].subject);
		tap_ok(wants[i].ok == (why == NULL), "... a reason when not");
		message_free(m);
	}
	tap_is_str(query,
		   "f:\"pat@example.com\" AND "
		   "dt:20240102090000..20240102110000",
		   "the archive's query");
	g_string_free(got, TRUE);
	g_ptr_array_unref(ids);
	g_ptr_array_unref(all);
	message_free(target);
	return tap_done();
}
