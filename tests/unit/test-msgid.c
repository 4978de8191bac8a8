/* Message-ID forms from arguments and headers (table-driven). */
#include "core/msgid.h"
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
	return tap_done();
}
