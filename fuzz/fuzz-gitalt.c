/*
 * fuzz-gitalt.c - GIT_ALTERNATE_OBJECT_DIRECTORIES's entries made
 * absolute (core/gitalt.c): the input's first line is the folder (made
 * absolute when it is not), the rest the variable's value, split as git
 * splits it (comments, C-quoted entries, broken quoting). The result
 * holds no relative entry, so making it absolute again changes nothing,
 * it only grows, and a value with no relative entry is left alone.
 */
#include "fuzz.h"

#include "core/gitalt.h"

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
	g_autofree char *s = fuzz_cstr(data, size);
	g_autofree char *base = NULL, *out = NULL, *again = NULL, *rel = NULL;
	char *nl = strchr(s, '\n');
	const char *value = nl ? nl + 1 : s;

	if (nl)
		*nl = '\0';
	base = g_strconcat(nl && *s == '/' ? "" : "/", nl ? s : "b", NULL);
	out = gitalt_absolute(value, base);
	fuzz_assert(!out == !gitalt_relative(value));
	if (!out)
		return 0;
	fuzz_assert(strlen(out) > strlen(value));
	fuzz_assert(!gitalt_relative(out));
	again = gitalt_absolute(out, base);
	fuzz_assert(!again);
	/* a folder that is not absolute makes nothing */
	rel = gitalt_absolute(value, base + 1);
	fuzz_assert(!rel || base[1] == '/');
	return 0;
}
