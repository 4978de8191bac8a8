/*
 * fuzz-pullsig.c - what git verify-tag / verify-commit --raw printed for
 * a fetched pull request (GnuPG's status lines, or an SSH signature's
 * words), read by pullsig_parse(). The first byte is git's exit status
 * (0 or 1), the rest its stderr: the user ids in it are the signer's.
 */
#include "fuzz.h"

#include "git/pullsig.h"

#include <string.h>

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_init();
	return 0;
}

/* a field shown on the terminal: bounded, no control byte */
static void
check_field(const char *s)
{
	const unsigned char *p;

	if (!s)
		return;
	fuzz_assert(strlen(s) <= 4 * LORE_TERM_MAX);
	fuzz_assert(g_utf8_validate(s, -1, NULL));
	for (p = (const unsigned char *)s; *p; p++)
		fuzz_assert(*p >= 0x20 && *p != 0x7f);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pullsig a = {0}, b = {0};
	int rc;

	if (!size)
		return 0;
	rc = data[0] & 1;
	pullsig_parse((const char *)data + 1, size - 1, rc, &a);
	fuzz_assert(a.state <= PULLSIG_UNCHECKED);
	/* a good signature needs git's success */
	fuzz_assert(a.state != PULLSIG_GOOD || rc == 0);
	/* a failed verify is never good, whatever the words say */
	if (rc)
		fuzz_assert(a.state != PULLSIG_GOOD);
	check_field(a.keyid);
	check_field(a.signer);
	check_field(a.why);
	fuzz_assert(a.state != PULLSIG_UNCHECKED || a.why);
	/* the same words read twice say the same */
	pullsig_parse((const char *)data + 1, size - 1, rc, &b);
	fuzz_assert(a.state == b.state);
	fuzz_assert(g_strcmp0(a.keyid, b.keyid) == 0);
	fuzz_assert(g_strcmp0(a.signer, b.signer) == 0);
	pullsig_clear(&a);
	pullsig_clear(&b);
	return 0;
}
