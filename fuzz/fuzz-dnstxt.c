/*
 * fuzz-dnstxt.c - a DNS server's answer (RFC 1035 message bytes) read for
 * its TXT record (dnstxt_parse), whole and cut short as a resolver may
 * store it, and the key record made of it for libopendkim
 * (dkimv_key_record): anyone may publish the key record of their own
 * domain, so every byte is the sender's.
 */
#include "fuzz.h"

#include "attest/dkimv.h"
#include "attest/dnstxt.h"

#include <string.h>

int
LLVMFuzzerInitialize(int *argc, char **argv[])
{
	fuzz_init();
	return 0;
}

/* The key record's invariants: only tags a verifier reads (or a piece
 * without "=", kept for libopendkim to refuse), none empty, none with
 * white space around it, never longer, and made again the same. */
static void
check_key_record(const char *txt)
{
	g_autofree char *rec = dkimv_key_record(txt);
	g_autofree char *again = dkimv_key_record(rec);
	g_auto(GStrv) specs = g_strsplit(rec, ";", -1);
	guint i;

	fuzz_assert(strlen(rec) <= strlen(txt));
	fuzz_assert(!strcmp(rec, again));
	for (i = 0; *rec && specs[i]; i++) {
		const char *s = specs[i], *eq = strchr(s, '=');
		size_t n = strlen(s);

		fuzz_assert(n > 0);
		fuzz_assert(!g_ascii_isspace(s[0]) &&
			    !g_ascii_isspace(s[n - 1]));
		if (!eq)
			continue;
		/* the name, without the white space before "=" */
		for (n = eq - s; n && g_ascii_isspace(s[n - 1]); n--)
			;
		fuzz_assert(n == 1 && strchr("ghkpstv", s[0]));
	}
}

/* The answer's first @len bytes in a buffer of exactly that size, so that
 * a read past them is a sanitizer's (or valgrind's) error. */
static void
parse_cut(const uint8_t *data, size_t len)
{
	g_autofree guchar *buf = g_memdup2(data, len ? len : 1);
	g_autofree char *txt = dnstxt_parse(buf, len);

	if (!txt)
		return;
	/* the strings of one record, less their length bytes, fit in
	 * the message, past its 12-byte header */
	fuzz_assert(len > 12 && strlen(txt) < len - 12);
	check_key_record(txt);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	g_autofree char *s = fuzz_cstr(data, size);

	parse_cut(data, size);
	/* as a resolver that stored less than the answer's length */
	parse_cut(data, size / 2);
	/* the bytes as a key record themselves */
	check_key_record(s);
	return 0;
}
