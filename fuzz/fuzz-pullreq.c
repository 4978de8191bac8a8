/*
 * fuzz-pullreq.c - a [GIT PULL] mail's text read by pullreq_parse(), with
 * the invariants git/pull.c relies on before it runs git fetch.
 */
#include "fuzz.h"

#include "mail/pullreq.h"

#include <string.h>

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_init();
	return 0;
}

static void
check_id(const char *id)
{
	size_t n, i;

	if (!id)
		return;
	n = strlen(id);
	fuzz_assert(n >= 5 && n <= 40);
	for (i = 0; i < n; i++)
		fuzz_assert(g_ascii_isdigit(id[i]) ||
			    (id[i] >= 'a' && id[i] <= 'f'));
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autofree char *s = fuzz_cstr(data, size);
	struct pullreq p;
	gboolean got = pullreq_parse(s, &p);

	fuzz_assert(got == (p.url != NULL));
	if (got) {
		/* nothing git could take for an option or another transport */
		fuzz_assert(pullreq_url_ok(p.url));
		fuzz_assert(p.url[0] != '-');
		fuzz_assert(strlen(p.url) <= PULLREQ_MAX_URL);
		fuzz_assert(!p.ref || pullreq_ref_ok(p.ref));
		fuzz_assert(!p.ref || (p.ref[0] != '-' &&
				       strlen(p.ref) <= PULLREQ_MAX_REF));
		check_id(p.base);
		check_id(p.tip);
	} else {
		fuzz_assert(!p.ref && !p.base && !p.tip && !p.commits);
	}
	pullreq_clear(&p);
	return 0;
}
