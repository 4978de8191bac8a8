/*
 * fuzz-maintainers.c - a tree's MAINTAINERS file read for one address
 * (lore-am queue --mine): any bytes, the patterns it gives bounded by the
 * text, and files matched against them.
 */
#include "fuzz.h"

#include "queue/maintainers.h"

#include <string.h>

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_init();
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const files[] = {
	    "drivers/widget/core.c", "include/widget.h", "README", "", "a/b/c",
	};
	struct maintainers *m = maintainers_parse((const char *)data, size,
						  "maintainer@example.org");
	gsize total = 0;
	guint i;

	for (i = 0; i < m->patterns->len; i++)
		total += strlen(m->patterns->pdata[i]);
	fuzz_assert(total <= size);
	for (i = 0; i < G_N_ELEMENTS(files); i++)
		maintainers_match(m, files[i]);
	maintainers_free(m);
	return 0;
}
