/* The search query -c sends, and change-id lines (table-driven). */
#include "series/newer.h"
#include "tap.h"

static const struct {
	const char *title, *email, *cid;
	gint64 date;
	const char *want;
} queries[] = {
    {"frob: make it so", "a@b.c", NULL, 1704888000,
     "(s:\"frob: make it so\" AND f:\"a@b.c\") AND d:20240110.."},
    {"say \"hi\"", "a@b.c", NULL, 0, "(s:\"say  hi \" AND f:\"a@b.c\")"},
    {"t", "", NULL, 86400, "(s:\"t\") AND d:19700102.."},
    {"t", "x\"y@z", "20240101-topic-1a2b", 1704067199,
     "((s:\"t\" AND f:\"x y@z\") OR nq:\"change-id: 20240101-topic-1a2b\") AND "
     "d:20231231.."},
};

static const struct {
	const char *body, *want;
} cids[] = {
    {"cover\n\n---\nbase-commit: abc\nchange-id: 20240101-x-123\n\nBest "
     "regards,\n",
     "20240101-x-123"},
    {"Change-Id:   I1234abcd  \n", "I1234abcd"},
    {"change-id:\n", NULL},
    {"change-id: two words\n", NULL},
    {"no id here\n> change-id: quoted\n", NULL},
    {"", NULL},
};

int
main(void)
{
	unsigned i;

	for (i = 0; i < G_N_ELEMENTS(queries); i++) {
		g_autofree char *q =
		    newer_query(queries[i].title, queries[i].email,
				queries[i].cid, queries[i].date);

		tap_is_str(q, queries[i].want, "query %u", i);
	}
	for (i = 0; i < G_N_ELEMENTS(cids); i++) {
		g_autofree char *c = newer_change_id(cids[i].body);

		tap_is_str(c, cids[i].want, "change-id %u", i);
	}
	return tap_done();
}
