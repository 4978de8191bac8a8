/* Hostile Message-IDs from arguments, headers and archive URLs: escapes
 * never let a control in, path and shell characters stay plain (table-driven).
 */
#include "core/msgid.h"
#include "tap.h"

static const struct {
	const char *arg, *want; /* want NULL: refused */
} args[] = {
    {"id@host", "id@host"},
    {"<id@host>", "id@host"},
    {"  <id@host>  ", "id@host"},
    {"id:id@host", "id@host"},
    {"id:\"odd id@host\"", NULL},
    {"https://lore.kernel.org/all/id@host/", "id@host"},
    {"https://lore.kernel.org/linux-mm/id@host/T/#u", "id@host"},
    {"https://lore.kernel.org/r/id@host", "id@host"},
    {"https://patch.msgid.link/id@host", "id@host"},
    /* escapes are decoded: the id keeps its '/' and '%' */
    {"https://lore.kernel.org/all/a%2Fb%25c@host/", "a/b%c@host"},
    {"https://lore.kernel.org/all/..%2F..%2Fx@host/", "../../x@host"},
    /* no control character gets in through an escape */
    {"https://lore.kernel.org/all/a%0Ab@host/", NULL},
    {"https://lore.kernel.org/all/a%1B%5B2J@host/", NULL},
    {"https://lore.kernel.org/all/a%C2%9Bb@host/", NULL},
    {"https://lore.kernel.org/all/a%FFb@host/", NULL},
    {"a\nb@x", NULL},
    {"a b@x", NULL},
    {"\x1b[2J@x", NULL},
    {"", NULL},
    {"<>", NULL},
    /* shell and path characters are plain characters of an id */
    {"$(touch${IFS}x);`id`|&*?[x]@h", "$(touch${IFS}x);`id`|&*?[x]@h"},
    {"../../etc/passwd@h", "../../etc/passwd@h"},
    /* UTF-8 ids are allowed (RFC 6532), broken UTF-8 is not */
    {"caf\xc3\xa9@h", "caf\xc3\xa9@h"},
    {"caf\xe9@h", NULL},
};

static const struct {
	const char *hdr, *want;
} headers[] = {
    {"<a@b>", "a@b"},	 {"  <a@b> (comment)", "a@b"},
    {"a@b", "a@b"},	 {"<a\xf2\xf2@b>", NULL},
    {"<a\x7f@b>", NULL}, {"<>", NULL},
    {NULL, NULL},
};

int
main(void)
{
	GPtrArray *l;
	unsigned i;

	for (i = 0; i < G_N_ELEMENTS(args); i++) {
		char *got = msgid_from_arg(args[i].arg);
		g_autofree char *shown = g_strescape(args[i].arg, NULL);

		tap_is_str(got, args[i].want, "argument '%s'", shown);
		g_free(got);
	}
	for (i = 0; i < G_N_ELEMENTS(headers); i++) {
		char *got = msgid_from_header(headers[i].hdr);
		g_autofree char *shown = headers[i].hdr
					     ? g_strescape(headers[i].hdr, NULL)
					     : g_strdup("(null)");

		tap_is_str(got, headers[i].want, "header '%s'", shown);
		g_free(got);
	}
	l = msgid_list("<a@b> junk <c\x01@d> <e@f> <g@h");
	tap_ok(l->len == 2 && !strcmp(l->pdata[0], "a@b") &&
		   !strcmp(l->pdata[1], "e@f"),
	       "References: bad ids and an unclosed one are dropped");
	g_ptr_array_free(l, TRUE);
	return tap_done();
}
