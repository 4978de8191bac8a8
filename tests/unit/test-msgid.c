/* Message-ID forms from arguments and headers (table-driven). */
#include "core/msgid.h"

#include <string.h>
#include "tap.h"

static const struct {
	const char *in, *out;
} args[] = {
    {"abc@host", "abc@host"},
    {"<abc@host>", "abc@host"},
    {"  <abc@host>  ", "abc@host"},
    {"id:abc@host", "abc@host"},
    {"id:\"a b\"", NULL},
    {"https://lore.kernel.org/linux-mm/abc@host/", "abc@host"},
    {"https://lore.kernel.org/all/abc@host/T/#u", "abc@host"},
    {"https://lore.kernel.org/r/abc@host", "abc@host"},
    {"https://patch.msgid.link/abc@host", "abc@host"},
    {"https://lore.kernel.org/netdev/abc%40host/t.mbox.gz", "abc@host"},
    {"https://lore.kernel.org/list/a%2Fb%2Bc@host/", "a/b+c@host"},
    {"https://lore.kernel.org/r/noat", "noat"},
    {"", NULL},
    {"<>", NULL},
    {"a b@host", NULL},
    {"bad\x01id@host", NULL},
};

/* Header values the copying and the in-place readers must agree on */
static const char *const values[] = {
    "<a@b>",
    "  < a@b >  trailing",
    "a@b",
    " \t a@b c@d \t",
    "a@b\f c@d",
    "<a b@c>",
    "<>",
    "<a@b> <c@d>\n\t<e@f> junk <> <x y> <g@h",
    "no brackets at all, words",
    "<\xc3\xa9@x> <\xc3@x>",
    "",
};

/* msgid_from_header_to() and msgid_list_to() (a message's one allocation)
 * against msgid_from_header_len() and msgid_list_len() */
static void
same_in_place(void)
{
	unsigned i, k;

	for (i = 0; i < G_N_ELEMENTS(values); i++) {
		const char *v = values[i];
		size_t n = strlen(v), used;
		char *buf = g_malloc(n + 1);
		g_autofree char *want = msgid_from_header_len(v, n);
		char *got = msgid_from_header_to(v, n, buf);
		GPtrArray *wl = msgid_list_len(v, n), *gl = g_ptr_array_new();
		gboolean same;

		tap_is_str(got, want, "one id in place: '%s'", v);
		g_free(buf);
		buf = g_malloc(n + 1);
		used = msgid_list_to(v, n, gl, buf);
		same = wl->len == gl->len && used <= n + 1;
		for (k = 0; same && k < wl->len; k++)
			same = !strcmp(wl->pdata[k], gl->pdata[k]);
		tap_ok(same, "the ids in place: '%s'", v);
		g_ptr_array_free(wl, TRUE);
		g_ptr_array_free(gl, TRUE);
		g_free(buf);
	}
}

int
main(void)
{
	unsigned i;
	GPtrArray *refs;

	for (i = 0; i < G_N_ELEMENTS(args); i++) {
		char *id = msgid_from_arg(args[i].in);

		tap_is_str(id, args[i].out, "argument '%s'", args[i].in);
		g_free(id);
	}
	{
		char *id = msgid_from_header(" <x@y> (comment)");

		tap_is_str(id, "x@y", "header with a comment");
		g_free(id);
		id = msgid_from_header("x@y");
		tap_is_str(id, "x@y", "header without brackets");
		g_free(id);
	}
	refs = msgid_list("<a@b> <c@d>\n\t<e@f> junk <>");
	tap_is_int(refs->len, 3,
		   "References: three ids, the empty one dropped");
	tap_is_str(refs->len > 2 ? refs->pdata[2] : NULL, "e@f",
		   "folded References");
	g_ptr_array_free(refs, TRUE);
	same_in_place();
	return tap_done();
}
