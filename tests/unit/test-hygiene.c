/*
 * Trailer hygiene (table-driven): which Fixes: values hold a commit id,
 * which addresses gmane mangled, which Link: values name a message and
 * which one.
 */
#include "trailers/hygiene.h"
#include "tap.h"

#include <glib.h>

static const struct {
	const char *value;
	gboolean ok;
} fixes[] = {
    {"1234567890ab (\"x: fix y\")", TRUE},
    {"deadbee", TRUE},
    {"abcdef", TRUE},
    {"ABCDEF0123 (\"upper case\")", TRUE},
    {"abcde (\"five digits\")", FALSE},
    {"commit 1234567890ab", FALSE},
    {"the earlier rework", FALSE},
    {"https://bugzilla.kernel.org/show_bug.cgi?id=1", FALSE},
    {"1234567890abx (\"glued\")", FALSE},
    {"#123", FALSE},
    {"", FALSE},
    {"0123456789012345678901234567890123456789", TRUE},
    {"01234567890123456789012345678901234567890", FALSE},
};

static const struct {
	const char *email;
	gboolean gmane;
} addrs[] = {
    {"jlayton-eUNUBHrolfbYtjvyW6yDsg@public.gmane.org", TRUE},
    {"dumitru.ceclan-OyLXuOCK7orQT0dZR+AlfA-XMD5yJDbdMReXY1tMh2IBg@"
     "public.gmane.org",
     TRUE},
    {"bp-Gina5bIWoIWzQB+pC5nmwQ@PUBLIC.GMANE.ORG", TRUE},
    {"jlayton@public.gmane.org", FALSE},
    {"jlayton-short@public.gmane.org", FALSE},
    {"jlayton-eUNUBHrolfbYtjvyW6yDsg@kernel.org", FALSE},
    {"-eUNUBHrolfbYtjvyW6yDsg@public.gmane.org", FALSE},
    {"", FALSE},
    {NULL, FALSE},
};

static const struct {
	const char *value, *id; /* id NULL: names no message */
} links[] = {
    {"https://lore.kernel.org/r/a@b", "a@b"},
    {"https://lore.kernel.org/all/a@b/", "a@b"},
    {"https://lore.kernel.org/netdev/a@b/T/#u", "a@b"},
    {"https://patch.msgid.link/a@b", "a@b"},
    {"http://lkml.kernel.org/r/a%40b", "a@b"},
    {"https://msgid.link/a@b", "a@b"},
    {"https://LORE.kernel.org/r/a@b # note", "a@b"},
    {"https://lore.kernel.org.evil.example/r/a@b", NULL},
    {"https://evil.example/lore.kernel.org/r/a@b", NULL},
    {"https://bugzilla.kernel.org/show_bug.cgi?id=1", NULL},
    {"ftp://lore.kernel.org/r/a@b", NULL},
    {"lore.kernel.org/r/a@b", NULL},
};

int
main(void)
{
	guint i;

	for (i = 0; i < G_N_ELEMENTS(fixes); i++)
		tap_ok(hygiene_fixes_ok(fixes[i].value) == fixes[i].ok,
		       "Fixes: '%s' %s", fixes[i].value,
		       fixes[i].ok ? "has a commit id" : "has none");
	for (i = 0; i < G_N_ELEMENTS(addrs); i++)
		tap_ok(hygiene_gmane_addr(addrs[i].email) == addrs[i].gmane,
		       "'%s' %s", addrs[i].email ? addrs[i].email : "(null)",
		       addrs[i].gmane ? "is gmane's" : "is not gmane's");
	for (i = 0; i < G_N_ELEMENTS(links); i++) {
		g_autofree char *id = hygiene_link_msgid(links[i].value);

		tap_is_str(id, links[i].id, "Link: %s", links[i].value);
	}
	{
		struct trailer *a = trailer_new(
		    "Link", "https://lore.kernel.org/all/a@b/", NULL);
		struct trailer *b =
		    trailer_new("Link", "https://patch.msgid.link/a@b", NULL);
		struct trailer *c =
		    trailer_new("Link", "https://patch.msgid.link/c@d", NULL);
		GPtrArray *l = g_ptr_array_new();

		g_ptr_array_add(l, a);
		tap_ok(hygiene_link_in(l, b), "one message on two hosts");
		tap_ok(!hygiene_link_in(l, c), "two messages");
		g_ptr_array_free(l, TRUE);
		trailer_free(a);
		trailer_free(b);
		trailer_free(c);
	}
	return tap_done();
}
