/* MAINTAINERS read for one address (--mine), and files matched against
 * its F: patterns as get_maintainer.pl does (table-driven). */
#include "queue/maintainers.h"
#include "tap.h"

#include <string.h>

static const char text[] = "List of maintainers\n"
			   "\n"
			   "THE REST\n"
			   "M:\tSomeone Else <else@example.net>\n"
			   "F:\t*\n"
			   "F:\t*/\n"
			   "\n"
			   "WIDGET DRIVER\n"
			   "M:\tTest Maintainer <Maintainer@Example.org>\r\n"
			   "L:\tlist@example.org\n"
			   "F:\tdrivers/widget/\n"
			   "F:\tinclude/widget.h\n"
			   "F:\tDocumentation/widget\n"
			   "F:\tarch/*/widget.c\n"
			   "\n"
			   "NOT MINE\n"
			   "M:\tA Maintainer <amaintainer@example.org.uk>\n"
			   "R:\tTest Maintainer <maintainer@example.org>\n"
			   "F:\tnet/\n";

static const struct {
	const char *file;
	gboolean mine;
} files[] = {
    {"drivers/widget/core.c", TRUE},
    {"drivers/widget/sub/deep.c", TRUE},
    {"drivers/widgets/core.c", FALSE},
    {"include/widget.h", TRUE},
    {"include/widget.h.orig", FALSE},
    {"Documentation/widget/index.rst", TRUE},
    {"arch/x86/widget.c", TRUE},
    {"arch/x86/sub/widget.c", FALSE},
    {"net/core.c", FALSE}, /* an R: line is no M: line */
    {"README", FALSE},	   /* THE REST is someone else's */
};

int
main(void)
{
	struct maintainers *m =
	    maintainers_parse(text, strlen(text), "maintainer@example.org");
	struct maintainers *none =
	    maintainers_parse(text, strlen(text), "nobody@example.org");
	unsigned i;

	tap_ok(m->patterns->len == 4, "four F: patterns are mine, got %u",
	       m->patterns->len);
	tap_ok(none->patterns->len == 0, "an address no M: line names: none");
	for (i = 0; i < G_N_ELEMENTS(files); i++)
		tap_ok(maintainers_match(m, files[i].file) == files[i].mine,
		       "%s: %s", files[i].file, files[i].mine ? "mine" : "not");
	maintainers_free(m);
	maintainers_free(none);
	return tap_done();
}
