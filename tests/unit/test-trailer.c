/* Trailer lines: what counts in a reply, how values are normalised, how
 * senders are matched (table-driven). */
#include "mail/message.h"
#include "trailers/trailer.h"
#include "tap.h"

#include <gmime/gmime.h>

static const struct {
	const char *text;
	int followup;
	const char *first; /* "Name: value" of the first trailer, or NULL */
	int count;
} finds[] = {
    {"Reviewed-by: A B <a@b.example>", 1, "Reviewed-by: A B <a@b.example>", 1},
    {"> Reviewed-by: A B <a@b.example>", 1, NULL, 0},
    {"  Acked-by: A B <a@b.example>", 1, "Acked-by: A B <a@b.example>", 1},
    {"Looks good.\n\nTested-by: T <t@x.example>\n-- \nReviewed-by: S "
     "<s@x.example>",
     1, "Tested-by: T <t@x.example>", 1},
    {"Fixes: 0123456789ab (\"mm: thing\")", 1,
     "Fixes: 0123456789ab (\"mm: thing\")", 1},
    {"Fixes: 0123456789ab (\"mm: a subject\n wrapped\")", 1,
     "Fixes: 0123456789ab (\"mm: a subject  wrapped\")", 1},
    {"Signed-off-by: Long Name\n<long@name.example>", 1,
     "Signed-off-by: Long Name <long@name.example>", 1},
    {"Note: this is not a trailer", 1, NULL, 0},
    {"See: https://example.com/x", 1, NULL, 0},
    {"Link: https://example.com/x", 1, "Link: https://example.com/x", 1},
    {"Closes: https://bugs.example/1", 1, "Closes: https://bugs.example/1", 1},
    {"Reviewed-by: A <a@b.example> # for the core bits", 1,
     "Reviewed-by: A <a@b.example>", 1},
    /* a quoted name keeps its quotes, as git keeps the line */
    {"Reviewed-by: \"Last, First\" <lf@x.example>", 1,
     "Reviewed-by: \"Last, First\" <lf@x.example>", 1},
    {"Reviewed-by: \"A. U. Thor\"  <a@x.example>", 1,
     "Reviewed-by: \"A. U. Thor\" <a@x.example>", 1},
    {"Reviewed-by: J <j@x.example<mailto:j@x.example>>", 1,
     "Reviewed-by: J <j@x.example>", 1},
    {"X: y <z@w.example>", 1, NULL, 0},
    {"Cc: stable@vger.kernel.org # 5.10", 0, "Cc: stable@vger.kernel.org", 1},
    {"Phone: 555 <p@x.example>", 1, NULL, 0},
};

/* What the commit message gets back: a patch's own trailer as written, a
 * reply's formatted (trailer_string with its extinfo) */
static const struct {
	const char *text;
	int followup;
	const char *written;
} writes[] = {
    {"Signed-off-by: \"Yann E. MORIN\" <y@x.example>", 0,
     "Signed-off-by: \"Yann E. MORIN\" <y@x.example>"},
    {"Signed-off-by: y@x.example   (Yann)", 1,
     "Signed-off-by: Yann <y@x.example>"},
    {"Signed-off-by: y@x.example (Yann)\r", 0,
     "Signed-off-by: y@x.example (Yann)"},
    {"Signed-off-by: Long Name\n<long@name.example>", 0,
     "Signed-off-by: Long Name\n<long@name.example>"},
    {"  Acked-by:  A   B <a@b.example>", 0, "  Acked-by:  A   B <a@b.example>"},
    {"Cc: stable@vger.kernel.org # 5.10", 0,
     "Cc: stable@vger.kernel.org # 5.10"},
    {"Reviewed-by: R <r@x.example>\n  [for the docs]", 0,
     "Reviewed-by: R <r@x.example>\n  [for the docs]"},
    {"Reviewed-by: R  <r@x.example>\n[for the docs]", 1,
     "Reviewed-by: R <r@x.example>\n[for the docs]"},
};

/* What trailer_from_reply() keeps of a reply: its trailers less mail
 * metadata; a reply whose "Token: value" lines can give none is not read
 * further, which must never lose one (an address wrapped to the next
 * line, a utility trailer without one). */
static const struct {
	const char *text;
	int count;
	const char *first;
} replies[] = {
    {"Nit: rename this\nMinor: and that", 0, NULL},
    {"Nit: rename this\n\nReviewed-by: Long Name\n<long@name.example>", 1,
     "Reviewed-by: Long Name <long@name.example>"},
    {"Nit: x\nReviewed-by: \n<a@b.example>", 1, "Reviewed-by: a@b.example"},
    {"Minor: x\nFixes: 0123456789ab (\"mm: a subject\n wrapped\")", 1,
     "Fixes: 0123456789ab (\"mm: a subject  wrapped\")"},
    {"Note: x\nlink: https://example.com/x", 1, "link: https://example.com/x"},
    {"Note: x\nCc: a@b.example\nFrom: B <b@c.example>", 0, NULL},
    {"Note: x\nObsoleted-by: 20240101.1-v2@x.example", 1,
     "Obsoleted-by: 20240101.1-v2@x.example"},
    {"Acked-by: A <a@b.example>\n  [for the docs]", 1,
     "Acked-by: A <a@b.example>"},
};

static const struct {
	const char *trailer_email, *from_email, *from_name, *trailer_name;
	int ok;
} senders[] = {
    {"a@b.example", "A@B.example", "A", "A", 1},
    {"a+lkml@b.example", "a@b.example", "A", "Z", 1},
    {"a@linux.intel.com", "a@intel.com", "A", "Z", 1},
    {"a@intel.com", "a@evil.intel.com.example", "A", "Z", 0},
    {"x@y.example", "z@w.example", "Same Name", "same name", 1},
    {"x@y.example", "z@w.example", "Other", "Name", 0},
    {"x@y.example", "z@w.example", "Doe, Jane", "Jane Doe", 1},
    {"x@y.example", "z@w.example", "Doe, Jane", "Jane Smith", 0},
};

int
main(void)
{
	unsigned i;

	g_mime_init();
	for (i = 0; i < G_N_ELEMENTS(finds); i++) {
		GPtrArray *t = trailer_array_new();
		char *first = NULL;

		trailer_find(finds[i].text, finds[i].followup, t, NULL);
		if (t->len)
			first = trailer_string(t->pdata[0], FALSE);
		tap_is_int(t->len, finds[i].count, "count in '%s'",
			   finds[i].text);
		tap_is_str(first, finds[i].first, "first trailer of '%s'",
			   finds[i].text);
		g_free(first);
		g_ptr_array_free(t, TRUE);
	}
	for (i = 0; i < G_N_ELEMENTS(writes); i++) {
		GPtrArray *t = trailer_array_new();
		char *w = NULL;

		trailer_find(writes[i].text, writes[i].followup, t, NULL);
		if (t->len)
			w = trailer_string(t->pdata[0], TRUE);
		tap_is_str(w, writes[i].written, "'%s' written back (%s)",
			   writes[i].text,
			   writes[i].followup ? "a reply's" : "the patch's");
		g_free(w);
		g_ptr_array_free(t, TRUE);
	}
	for (i = 0; i < G_N_ELEMENTS(replies); i++) {
		struct message src = {0};
		GPtrArray *t;
		char *first = NULL;

		src.from_email = (char *)"a@b.example";
		src.from_name = (char *)"A";
		t = trailer_from_reply(&src, replies[i].text);
		if (t->len)
			first = trailer_string(t->pdata[0], FALSE);
		tap_is_int(t->len, replies[i].count, "a reply sends %d in '%s'",
			   replies[i].count, replies[i].text);
		tap_is_str(first, replies[i].first, "first one sent in '%s'",
			   replies[i].text);
		tap_ok(!t->len || ((struct trailer *)t->pdata[0])->src == &src,
		       "the reply is its source");
		tap_ok(trailer_reply_sends(&src, replies[i].text) ==
			   (replies[i].count > 0),
		       "and says it sends some or not");
		g_free(first);
		g_ptr_array_free(t, TRUE);
	}
	for (i = 0; i < G_N_ELEMENTS(senders); i++) {
		struct message m = {0};
		char *v = g_strdup_printf("%s <%s>", senders[i].trailer_name,
					  senders[i].trailer_email);
		struct trailer *t = trailer_new("Reviewed-by", v, NULL);

		m.from_email = (char *)senders[i].from_email;
		m.from_name = (char *)senders[i].from_name;
		tap_is_int(trailer_sender_ok(t, &m), senders[i].ok,
			   "'%s' sent by %s <%s>", v, senders[i].from_name,
			   senders[i].from_email);
		trailer_free(t);
		g_free(v);
	}
	{
		struct trailer *a =
		    trailer_new("Reviewed-by", "A <A@B.example>", NULL);
		struct trailer *b =
		    trailer_new("reviewed-by", "a <a@b.example>", NULL);
		struct trailer *x =
		    trailer_new("Link", "https://l/x", "  # bug");
		char *s = trailer_string(x, TRUE);

		struct trailer *q =
		    trailer_new("reviewed-by", "\"A\" <a@b.example>", NULL);

		tap_ok(trailer_eq(a, b), "trailers compare without case");
		tap_ok(trailer_eq(a, q), "and a name in quotes is the same");
		trailer_free(q);
		tap_is_str(s, "Link: https://l/x  # bug",
			   "a # comment stays on its line");
		g_free(s);
		trailer_free(a);
		trailer_free(b);
		trailer_free(x);
	}
	return tap_done();
}
