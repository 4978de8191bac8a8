/*
 * fuzz-prereq.c - the prerequisite lines of a cover letter
 * (series/prereq.h) from any bytes, with the bounds the dependency code
 * relies on: at most PREREQ_MAX kept, each value well formed for its kind,
 * and prereq_may_hold() TRUE whenever one is found.
 */
#include "fuzz.h"

#include "core/msgid.h"
#include "series/prereq.h"

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
	struct prereqs *ps = prereq_parse((const char *)data, size);
	guint i;

	fuzz_assert(ps->items->len <= PREREQ_MAX);
	/* the quick look never says no where the parser finds one */
	if (ps->items->len)
		fuzz_assert(prereq_may_hold((const char *)data, size));
	for (i = 0; i < ps->items->len; i++) {
		const struct prereq *p = ps->items->pdata[i];
		size_t n = strlen(p->value);

		fuzz_assert(n > 0 && n <= PREREQ_LINE_MAX);
		fuzz_assert(strlen(p->text) <= PREREQ_LINE_MAX);
		fuzz_assert(p->line >= 1);
		fuzz_assert(p->revision >= 0);
		switch (p->kind) {
		case PREREQ_MESSAGE_ID:
			fuzz_assert(msgid_valid(p->value));
			fuzz_assert(strchr(p->value, '@') != NULL);
			break;
		case PREREQ_PATCH_ID:
			fuzz_assert(n >= 40 && n <= 64);
			fuzz_assert(strspn(p->value, "0123456789abcdef") == n);
			break;
		case PREREQ_CHANGE_ID:
		case PREREQ_PATCHWORK:
			fuzz_assert(!strpbrk(p->value, " \t\r\n"));
			break;
		}
	}
	if (ps->base_commit)
		fuzz_assert(strspn(ps->base_commit, "0123456789abcdef") ==
			    strlen(ps->base_commit));
	prereqs_free(ps);
	return 0;
}
