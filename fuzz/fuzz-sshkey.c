/*
 * fuzz-sshkey.c - a patatt keyring file for an OpenSSH key, read by
 * sshv_key_line() before its key goes into ssh-keygen's allowed-signers
 * file. The keyring may come from a git ref others push to: whatever the
 * file holds, a key taken is one known type and one base64 word, nothing
 * that could add an option, a principal or a line to that file.
 */
#include "fuzz.h"

#include "attest/sshv.h"

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
	char *type = NULL, *b64 = NULL, *type2 = NULL, *b642 = NULL;
	gboolean ok = sshv_key_line((const char *)data, size, &type, &b64);
	const char *p;

	if (!ok) {
		fuzz_assert(!type && !b64);
		return 0;
	}
	fuzz_assert(type && b64 && *type && *b64);
	fuzz_assert(strlen(b64) <= 8192);
	for (p = type; *p; p++)
		fuzz_assert(g_ascii_isalnum(*p) || strchr("-@.", *p));
	for (p = b64; *p; p++)
		fuzz_assert(g_ascii_isalnum(*p) || strchr("+/=", *p));
	/* the same file read twice gives the same key */
	fuzz_assert(sshv_key_line((const char *)data, size, &type2, &b642));
	fuzz_assert(!strcmp(type, type2) && !strcmp(b64, b642));
	g_free(type);
	g_free(b64);
	g_free(type2);
	g_free(b642);
	return 0;
}
