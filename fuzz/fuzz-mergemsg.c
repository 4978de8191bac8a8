/*
 * fuzz-mergemsg.c - --apply=merge's message from a cover letter's text:
 * b4's cut of the body (mergemsg_cover_text), the template filled, then
 * git merge's sign-off placement and clean-up (mergesob.c), with the
 * invariants the merge commit made by plumbing relies on.
 */
#include "fuzz.h"

#include "git/mergemsg.h"
#include "git/mergesob.h"

#include <string.h>

#define IDENT "Pat Contributor <pat@example.com>"

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_init();
	return 0;
}

/* what `git stripspace` leaves: no blank line first, last or doubled, no
 * white space ending a line, a newline at the end */
static void
check_clean(const char *m)
{
	size_t n = strlen(m);

	if (!n)
		return;
	fuzz_assert(m[n - 1] == '\n' && m[0] != '\n');
	fuzz_assert(n < 2 || m[n - 2] != '\n');
	fuzz_assert(!strstr(m, "\n\n\n"));
	fuzz_assert(!strstr(m, " \n") && !strstr(m, "\t\n") &&
		    !strstr(m, "\r\n"));
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autofree char *s = fuzz_cstr(data, size);
	g_autofree char *cover = mergemsg_cover_text(s);
	const char *const vals[] = {"covermessage", cover, "seriestitle", s,
				    NULL};
	g_autofree char *filled = mergemsg_fill(
	    "Merge \"${seriestitle}\"\n\n${covermessage}\n$$x $y ${z", vals);
	g_autofree char *sob = mergesob_append(filled, IDENT);
	g_autofree char *clean = mergesob_stripspace(sob ? sob : filled);
	g_autofree char *again = mergesob_stripspace(clean);

	check_clean(clean);
	fuzz_assert(!strcmp(clean, again));
	if (sob) {
		g_autofree char *twice = mergesob_append(sob, IDENT);

		fuzz_assert(strlen(sob) > strlen(filled) ||
			    strstr(filled, "Signed-off-by: " IDENT "\n"));
		fuzz_assert(strstr(sob, "Signed-off-by: " IDENT "\n"));
		/* once added it is the last trailer: not added again */
		fuzz_assert(twice && !strcmp(twice, sob));
	}
	return 0;
}
