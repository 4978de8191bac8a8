/* Subject parsing: prefixes, revisions, counters, replies (table-driven). */
#include "mail/subject.h"
#include "tap.h"

static const struct {
	const char *in, *title;
	int rev, counter, expected, reply, rfc, resend;
} cases[] = {
    {"[PATCH v3 2/7] mm: fix it", "mm: fix it", 3, 2, 7, 0, 0, 0},
    {"[RFC PATCH net-next v2 1/3] net: x", "net: x", 2, 1, 3, 0, 1, 0},
    {"[PATCH RESEND 2/2] foo", "foo", 1, 2, 2, 0, 0, 1},
    {"[PATCHv3 1/2] bar", "bar", 3, 1, 2, 0, 0, 0},
    {"[PATCH] single", "single", 1, 1, 1, 0, 0, 0},
    {"[RFC][PATCH 04/10] sched: y", "sched: y", 1, 4, 10, 0, 1, 0},
    {"[PATCH 0/3] cover", "cover", 1, 0, 3, 0, 0, 0},
    {"Re: [PATCH v2 1/3] x", "Re: [PATCH v2 1/3] x", 1, 1, 1, 1, 0, 0},
    {"RE: [PATCH 1/3] x", "RE: [PATCH 1/3] x", 1, 1, 1, 1, 0, 0},
    {"Aw: [PATCH] x", "Aw: [PATCH] x", 1, 1, 1, 1, 0, 0},
    {"Sv: [PATCH] x", "Sv: [PATCH] x", 1, 1, 1, 1, 0, 0},
    /* counters of up to 4 digits, as b4 reads them (\d{1,4}/\d{1,4}) */
    {"[PATCH 0000/1000] cover", "cover", 1, 0, 1000, 0, 0, 0},
    {"[PATCH 0999/1000] big", "big", 1, 999, 1000, 0, 0, 0},
    {"[PATCH 1000/1000] last", "last", 1, 1000, 1000, 0, 0, 0},
    {"[PATCH v2 9999/9999] most", "most", 2, 9999, 9999, 0, 0, 0},
    {"[PATCH 1000/1200] x", "x", 1, 1000, 1200, 0, 0, 0},
    {"[PATCH 1/99999] big", "big", 1, 1, 1, 0, 0, 0},
    {"[PATCH 10000/10000] big", "big", 1, 1, 1, 0, 0, 0},
    {"[PATCH v2,1/2] commas", "commas", 2, 1, 2, 0, 0, 0},
    {"[PATCH [v2] 3/4] nested", "nested", 2, 3, 4, 0, 0, 0},
    {"[PATCH 6/5] late", "late", 1, 6, 5, 0, 0, 0},
    {"no prefix at all", "no prefix at all", 1, 1, 1, 0, 0, 0},
    {"[PATCH 1/2", "[PATCH 1/2", 1, 1, 1, 0, 0, 0},
};

int
main(void)
{
	unsigned i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct subject s;

		subject_parse(cases[i].in, &s);
		tap_is_str(s.title, cases[i].title, "title of '%s'",
			   cases[i].in);
		tap_ok(s.revision == cases[i].rev &&
			   s.counter == cases[i].counter &&
			   s.expected == cases[i].expected &&
			   s.reply == cases[i].reply && s.rfc == cases[i].rfc &&
			   s.resend == cases[i].resend,
		       "numbers and flags of '%s' (v%d %d/%d reply=%d)",
		       cases[i].in, s.revision, s.counter, s.expected, s.reply);
		subject_clear(&s);
	}
	{
		char *t = subject_strip_prefixes(
		    "Re: [PATCH v2 1/2] [foo] bar [baz]");

		tap_is_str(t, "bar [baz]",
			   "mailinfo strips leading groups only");
		g_free(t);
	}
	return tap_done();
}
