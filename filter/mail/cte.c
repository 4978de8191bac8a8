/*
 * cte.c - base64 and quoted-printable decoded as GMime 3 decodes them in
 * one step (cte.h says where the two differ from a strict reading).
 */
#include "mail/cte.h"

/* a base64 digit's value; '=' counts as 0 (and ends the data); -1 for
 * anything else, which is skipped */
static int
b64_value(guchar c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return c == '=' ? 0 : -1;
}

static size_t
b64(const guchar *s, size_t n, guchar *out)
{
	guchar *o = out;
	guint32 bits = 0;
	int k = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		int v = b64_value(s[i]);

		if (v < 0)
			continue;
		bits = bits << 6 | (guint32)v;
		k++;
		if (s[i] == '=') {
			/* the padding: the quartet so far gives what its
			 * digits hold, and nothing after it counts */
			if (k == 3) {
				*o++ = (guchar)(bits << 6 >> 16);
			} else if (k == 4) {
				*o++ = (guchar)(bits >> 16);
				*o++ = (guchar)(bits >> 8);
			}
			return o - out;
		}
		if (k == 4) {
			*o++ = (guchar)(bits >> 16);
			*o++ = (guchar)(bits >> 8);
			*o++ = (guchar)bits;
			bits = 0;
			k = 0;
		}
	}
	return o - out;
}

static size_t
qp(const guchar *s, size_t n, guchar *out)
{
	guchar *o = out;
	size_t i = 0;

	while (i < n) {
		guchar c = s[i++], a, b;

		if (c != '=') {
			*o++ = c;
			continue;
		}
		if (i == n)
			break;
		a = s[i++];
		if (a == '\n') /* a soft line break */
			continue;
		if (i == n)
			break;
		b = s[i++];
		if (g_ascii_isxdigit(a) && g_ascii_isxdigit(b)) {
			*o++ = (guchar)(g_ascii_xdigit_value(a) << 4 |
					g_ascii_xdigit_value(b));
		} else if (a != '\r' || b != '\n') {
			*o++ = '=';
			*o++ = a;
			*o++ = b;
		}
	}
	return o - out;
}

char *
cte_decode(gboolean quoted, const char *s, size_t n, size_t *len)
{
	/* neither decoder writes more bytes than it reads */
	guchar *out = g_malloc(n + 1);

	*len = quoted ? qp((const guchar *)s, n, out)
		      : b64((const guchar *)s, n, out);
	out[*len] = '\0';
	return (char *)out;
}
