/*
 * fuzz-subject.c - the subject parser: b4's [PATCH ...] prefix rules,
 * git mailinfo's prefix stripping, header folding and the mbox From_ test,
 * with the invariants the series code relies on.
 */
#include "fuzz.h"

#include "write/am.h"
#include "mail/mailinfo.h"
#include "mail/mbox.h"
#include "mail/subject.h"

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
	g_autofree char *stripped = NULL, *safe = NULL;
	struct subject subj;
	GString *wrapped;

	subject_parse(s, &subj);
	fuzz_assert(subj.title != NULL);
	fuzz_assert(strlen(subj.title) <= strlen(s));
	/* counters are at most four digits, revisions at most six */
	fuzz_assert(subj.counter >= 0 && subj.counter <= 9999);
	fuzz_assert(subj.expected >= 0 && subj.expected <= 9999);
	fuzz_assert(subj.revision >= 0 && subj.revision <= 999999);
	subject_clear(&subj);

	stripped = subject_strip_prefixes(s);
	fuzz_assert(strlen(stripped) <= strlen(s));

	wrapped = g_string_new(NULL);
	am_wrap_header(wrapped, "Subject", s);
	fuzz_assert(wrapped->len && wrapped->str[wrapped->len - 1] == '\n');
	g_string_free(wrapped, TRUE);

	safe = lore_term_safe((const char *)data, size);
	fuzz_check_term_safe(safe);

	mailinfo_is_scissors((const char *)data, size);
	mbox_is_from_line((const char *)data, size);
	return 0;
}
