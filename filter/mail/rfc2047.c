/*
 * rfc2047.c - RFC 2047 encoded-word decoding for header text (subjects,
 * senders, in-body headers). Each word is decoded on its own ('B' base64
 * or 'Q' quoted-printable, RFC 2047 4.1 and 4.2), so the '=' padding of one
 * base64 word never ends the next, as git mailinfo's decode_header() reads
 * them; then a run of words in one charset is converted to UTF-8 at once.
 */
#include "mail/rfc2047.h"
#include "core/util.h"

#include <string.h>

static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = g_ascii_tolower(c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static void
decode_q(GString *out, const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		int hi, lo;

		if (p[i] == '_') {
			g_string_append_c(out, ' ');
		} else if (p[i] == '=' && i + 2 < n &&
			   (hi = hexval(p[i + 1])) >= 0 &&
			   (lo = hexval(p[i + 2])) >= 0) {
			g_string_append_c(out, (char)(hi << 4 | lo));
			i += 2;
		} else {
			g_string_append_c(out, p[i]);
		}
	}
}

/* Base64, skipping anything outside the alphabet (padding included). */
static void
decode_b(GString *out, const char *p, size_t n)
{
	static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				  "abcdefghijklmnopqrstuvwxyz0123456789+/";
	guint acc = 0, bits = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		const char *c = p[i] ? strchr(abc, p[i]) : NULL;

		if (!c)
			continue;
		acc = (acc << 6) | (guint)(c - abc);
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			g_string_append_c(out, (char)((acc >> bits) & 0xff));
		}
	}
}

/*
 * Is there an encoded word at @p? Sets the charset (without an RFC 2231
 * "*language"), the encoding letter and the encoded text, and returns the
 * end of the word; NULL when @p starts none.
 */
static const char *
word_at(const char *p, const char **cs, size_t *csn, char *enc,
	const char **txt, size_t *txtn)
{
	const char *q, *e;

	if (p[0] != '=' || p[1] != '?')
		return NULL;
	for (q = p + 2; *q && *q != '?'; q++)
		if (g_ascii_isspace(*q))
			return NULL;
	if (*q != '?' || q == p + 2 || !strchr("bBqQ", q[1]) || !q[1] ||
	    q[2] != '?')
		return NULL;
	*cs = p + 2;
	*csn = q - *cs;
	if (memchr(*cs, '*', *csn))
		*csn = (const char *)memchr(*cs, '*', *csn) - *cs;
	*enc = g_ascii_tolower(q[1]);
	*txt = q + 3;
	for (e = *txt; *e && !(e[0] == '?' && e[1] == '='); e++)
		if (*e == '\n' || *e == '\r')
			return NULL;
	if (!*e)
		return NULL;
	*txtn = e - *txt;
	return e + 2;
}

/* Convert the pending bytes of a run of words and append them. */
static void
flush_run(GString *out, GString *bytes, char **charset)
{
	if (bytes->len) {
		g_autofree char *u =
		    lore_to_utf8(bytes->str, bytes->len, *charset);

		g_string_append(out, u);
	}
	g_string_truncate(bytes, 0);
	g_clear_pointer(charset, g_free);
}

char *
rfc2047_decode(const char *text)
{
	GString *out, *bytes;
	char *charset = NULL;
	const char *p = text, *gap = NULL;

	if (!strstr(text, "=?"))
		return g_strdup(text);
	out = g_string_sized_new(strlen(text));
	bytes = g_string_new(NULL);

	while (*p) {
		const char *cs, *txt, *end;
		size_t csn, txtn;
		char enc;

		end = word_at(p, &cs, &csn, &enc, &txt, &txtn);
		if (!end) {
			/* white space after a word is held until we know
			 * whether another word follows it */
			if (charset && !gap && g_ascii_isspace(*p)) {
				gap = p;
			} else if (charset && gap && g_ascii_isspace(*p)) {
				/* still in the gap */
			} else {
				flush_run(out, bytes, &charset);
				if (gap) {
					g_string_append_len(out, gap, p - gap);
					gap = NULL;
				}
				g_string_append_c(out, *p);
			}
			p++;
			continue;
		}
		gap = NULL;
		if (charset && (strlen(charset) != csn ||
				g_ascii_strncasecmp(charset, cs, csn)))
			flush_run(out, bytes, &charset);
		if (!charset)
			charset = g_strndup(cs, csn);
		if (enc == 'b')
			decode_b(bytes, txt, txtn);
		else
			decode_q(bytes, txt, txtn);
		p = end;
	}
	flush_run(out, bytes, &charset);
	if (gap)
		g_string_append(out, gap);
	g_string_free(bytes, TRUE);
	return g_string_free(out, FALSE);
}

char *
rfc2047_encode(const char *text)
{
	GString *out = g_string_new(NULL);
	const char *p = text;

	while (*p) {
		const char *e = p;
		g_autofree char *b = NULL;

		/* 36 bytes make 48 base64 characters */
		while (*e && e - p < 36)
			e = g_utf8_next_char(e);
		b = g_base64_encode((const guchar *)p, e - p);
		g_string_append_printf(
		    out, "%s=?UTF-8?B?%s?=", out->len ? " " : "", b);
		p = e;
	}
	return g_string_free(out, FALSE);
}
