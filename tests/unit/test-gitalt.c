/* GIT_ALTERNATE_OBJECT_DIRECTORIES's relative entries made absolute
 * (core/gitalt.h), split as git splits it: comments, C-quoted entries
 * (the byte after the closing quote skipped), broken quoting read as an
 * ordinary entry, empty entries; every byte but the relative entries'
 * copied. t9115 runs the real thing with git. */
#include "core/gitalt.h"
#include "tap.h"

static const struct {
	const char *value, *base, *want; /* want NULL: nothing relative */
} cases[] = {
    {"", "/b", NULL},
    {"/abs", "/b", NULL},
    {"/a:/c::#rel:", "/b", NULL},
    {"\"/abs\":\"\\057abs\"", "/b", NULL},
    {"\"\"", "/b", NULL},
    {"rel", "/b", "/b/rel"},
    {"rel", "b", NULL},
    {"/a:rel::#c:x/y:", "/b", "/a:/b/rel::#c:/b/x/y:"},
    {"./r:../r", "/b", "/b/./r:/b/../r"},
    {"\"rel\"", "/b", "\"/b/rel\""},
    {"\"r:\\145l\":/a", "/b", "\"/b/r:\\145l\":/a"},
    /* the byte after the closing quote is git's to skip, whatever it is */
    {"\"re\\\"l\"X/a", "/b", "\"/b/re\\\"l\"X/a"},
    {"\"/abs\"Xrel", "/b", "\"/abs\"X/b/rel"},
    /* broken quoting: an ordinary entry up to the ':' */
    {"\"rel", "/b", "/b/\"rel"},
    {"\"a\\q\":c", "/b", "/b/\"a\\q\":/b/c"},
    {"\"\\4xx\"", "/b", "/b/\"\\4xx\""},
    {"\"\\3", "/b", "/b/\"\\3"},
    /* a base git would split is quoted */
    {"rel", "/b:x", "\"/b:x/rel\""},
    {"r\"q", "/b\\:x", "\"/b\\\\:x/r\\\"q\""},
    {"\"r\"", "/b\":x", "\"/b\\\":x/r\""},
};

int
main(void)
{
	guint i;

	tap_ok(!gitalt_relative(NULL), "no variable: nothing relative");
	for (i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *got =
		    gitalt_absolute(cases[i].value, cases[i].base);

		tap_is_str(got, cases[i].want, "'%s' from '%s'", cases[i].value,
			   cases[i].base);
		tap_ok(gitalt_relative(cases[i].value) ==
			   (cases[i].want != NULL || cases[i].base[0] != '/'),
		       "'%s': relative said as found", cases[i].value);
	}
	return tap_done();
}
