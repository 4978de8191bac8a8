/* The gate's trailer block: gate_trailers() reads a commit message's last
 * paragraph in place, and must find what body_split() finds there, the
 * same trailers in the same order, as written (table-driven). */
#include "gate/gate-int.h"
#include "trailers/bodyparts.h"
#include "tap.h"

static const char *const messages[] = {
    "",
    "\n\n\n",
    "Only a title line",
    "Fix the thing\n\nSigned-off-by: A U Thor <a@x.example>\n",
    "\n\nFix it\n\nWhy.\n\nSigned-off-by: A <a@x.example>\n\n\n",
    /* odd runs of newlines: g_strsplit's pairs from the left */
    "Fix\n\n\nSigned-off-by: A <a@x.example>\n",
    "Fix\n\n\n\n\nReviewed-by: R <r@x.example>\nSigned-off-by: A "
    "<a@x.example>",
    "Fix\n\n\n\n",
    /* trailers glued to the message's last lines */
    "Fix\n\nThe reason.\nSigned-off-by: A <a@x.example>\n",
    /* a wrapped Fixes: and a wrapped address, joined again */
    "Fix\n\nFixes: 0123456789ab (\"mm: a subject\nwrapped\")\n"
    "Signed-off-by: Long Name\n<long@name.example>\n",
    /* a note tail and a [note] line */
    "Fix\n\nCc: stable@vger.kernel.org # 6.6\nSigned-off-by: A "
    "<a@x.example>\n[fixed a typo]\nSigned-off-by: M <m@x.example>\n",
    /* an indented first line */
    "Fix\n\n  Reported-by: R <r@x.example>\nCloses: "
    "https://bugs.example/1\n",
    /* the cases left to body_split(): CRs, a "-- " line */
    "Fix\r\n\r\nSigned-off-by: A <a@x.example>\r\n",
    "Fix\n\nSigned-off-by: A <a@x.example>\n-- \nSig\n",
    "-- \nSigned-off-by: A <a@x.example>\n",
    "Fix\n\nSigned-off-by: A <a@x.example>\n-- ",
    "Fix\n\nSigned-off-by: A <a@x.example>\n-- \nSig\n\nMore of it\n",
    "Fix\n\nSigned-off-by: A <a@x.example>\r\n\r\nNot a trailer\r\n",
    /* not trailers: text, quotes, a URL in the last paragraph */
    "Fix\n\nSee https://example.com/x for why.\n> Acked-by: Q "
    "<q@x.example>\n",
};

static int
same(const struct trailer *a, const struct trailer *b)
{
	return !g_strcmp0(a->name, b->name) && !g_strcmp0(a->lname, b->lname) &&
	       !g_strcmp0(a->value, b->value) &&
	       !g_strcmp0(a->extinfo, b->extinfo) &&
	       !g_strcmp0(a->raw, b->raw) && a->type == b->type;
}

int
main(void)
{
	guint i, k;

	for (i = 0; i < G_N_ELEMENTS(messages); i++) {
		GPtrArray *got = gate_trailers(messages[i]);
		struct body_parts bp;
		gboolean ok;

		body_split(messages[i], &bp);
		ok = got->len == bp.trailers->len;
		for (k = 0; ok && k < got->len; k++)
			ok = same(got->pdata[k], bp.trailers->pdata[k]);
		tap_ok(ok,
		       "message %u: %u trailers, as body_split() reads them", i,
		       got->len);
		if (!ok)
			printf("#   got %u, body_split() %u\n", got->len,
			       bp.trailers->len);
		body_parts_clear(&bp);
		g_ptr_array_free(got, TRUE);
	}
	return tap_done();
}
