/*
 * cte_decode() against GMime's own decoder (g_mime_encoding_flush() on
 * the whole input, which msgbody.c called before): the same bytes out
 * for well-formed bodies and for every kind of broken one (padding in
 * the middle, a quartet cut short, stray bytes, '=' before non-hex, a
 * soft break with CRLF, '=' or "=x" at the very end), and for 20 000
 * random inputs drawn from the bytes that matter to each.
 */
#include <gmime/gmime.h>

#include "mail/cte.h"
#include "tap.h"

/* GMime's decoder called directly (the tests link GMime): lore-am's own
 * table (mail/gmimelib.h) does not hold it, and must not redirect it */
#ifdef g_mime_encoding_flush
#error "g_mime_encoding_flush is redirected by mail/gmimelib.h"
#endif

static gboolean
same_as_gmime(gboolean qp, const char *s, size_t n)
{
	GMimeEncoding st;
	char *want = g_malloc(n + 4), *got;
	size_t wn, gn;
	gboolean same;

	g_mime_encoding_init_decode(&st,
				    qp ? GMIME_CONTENT_ENCODING_QUOTEDPRINTABLE
				       : GMIME_CONTENT_ENCODING_BASE64);
	wn = g_mime_encoding_flush(&st, s, n, want);
	got = cte_decode(qp, s, n, &gn);
	same = wn == gn && !memcmp(want, got, wn) && got[gn] == '\0';
	g_free(want);
	g_free(got);
	return same;
}

static const char *const b64_cases[] = {
    "",
    "QUJD",
    "QUJDRA==",
    "QUJDREU=",
    "QUJD\nREVG\n",
    "QUJD\r\nRA==\r\n",
    "QQ==QUJD",
    "QUI",
    "Q===",
    "=QUJD",
    "QUJD=",
    "Q=UJ",
    "QU=J",
    "QUJ=\nRA==",
    "!!QU*JD~~",
    "QUJD\xff\x80",
    "QUJDR",
    "QUJDRE",
    "====",
    "Q",
};

static const char *const qp_cases[] = {
    "",	     "plain text\n", "caf=E9 na=EFve", "long=\nline", "a=3D=\r\nb\r\n",
    "end=",  "end=4",	     "=zz=41",	       "x==41",	      "x=\r",
    "=\r\n", "=\ra",	     "=e9=E9=eF",      "= 41",	      "=4\n1",
    "==",    "=\xff\x41",    "tab\t=\n",       "=0A=0d",      "a=",
};

/* @n random bytes, each one of @alphabet's */
static char *
random_text(GRand *r, const char *alphabet, size_t n)
{
	size_t i, k = strlen(alphabet);
	char *s = g_malloc(n + 1);

	for (i = 0; i < n; i++)
		s[i] = alphabet[g_rand_int_range(r, 0, (gint32)k)];
	s[n] = '\0';
	return s;
}

static void
random_cases(gboolean qp, const char *alphabet)
{
	GRand *r = g_rand_new_with_seed(qp ? 2045 : 4648);
	int i, bad = 0;

	for (i = 0; i < 10000; i++) {
		size_t n = (size_t)g_rand_int_range(r, 0, 40);
		char *s = random_text(r, alphabet, n);

		if (!same_as_gmime(qp, s, n) && !bad++) {
			g_autofree char *e = g_strescape(s, NULL);

			printf("# differs on '%s'\n", e);
		}
		g_free(s);
	}
	tap_ok(!bad, "%s: 10 000 random inputs decoded as GMime decodes them",
	       qp ? "quoted-printable" : "base64");
	g_rand_free(r);
}

int
main(void)
{
	guint i;

	g_mime_init();
	for (i = 0; i < G_N_ELEMENTS(b64_cases); i++) {
		g_autofree char *e = g_strescape(b64_cases[i], NULL);

		tap_ok(same_as_gmime(FALSE, b64_cases[i], strlen(b64_cases[i])),
		       "base64 '%s' as GMime", e);
	}
	for (i = 0; i < G_N_ELEMENTS(qp_cases); i++) {
		g_autofree char *e = g_strescape(qp_cases[i], NULL);

		tap_ok(same_as_gmime(TRUE, qp_cases[i], strlen(qp_cases[i])),
		       "quoted-printable '%s' as GMime", e);
	}
	random_cases(FALSE, "AQZaqz09+/=\n\r -*\xc3");
	random_cases(TRUE, "=AaFf09Gg\n\r \t.\xc3");
	g_mime_shutdown();
	return tap_done();
}
