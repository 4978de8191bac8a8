/*
 * util.c - shared helpers: error reporting, terminal-safe text (control and
 * bidi characters neutralised, as b4 refuses them), line iteration.
 */
#include "core/util.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int lore_quiet;
const char *lore_err_about;

GQuark
lore_error_quark(void)
{
	return g_quark_from_static_string("lore-am-error");
}

void
lore_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("lore-am: ", stderr);
	if (lore_err_about)
		fprintf(stderr, "<%s>: ", lore_err_about);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

int
lore_err_take(GError *err)
{
	int code = err->code;

	lore_err("%s", err->message);
	g_error_free(err);
	return code;
}

void
lore_info(const char *fmt, ...)
{
	va_list ap;

	if (lore_quiet)
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static gboolean
unsafe_char(gunichar c)
{
	if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0))
		return TRUE;
	/* Cf covers the bidi overrides and zero-width tricks. */
	return g_unichar_type(c) == G_UNICODE_FORMAT;
}

char *
lore_term_safe(const char *s, gssize len)
{
	GString *out;
	const char *p, *end;
	gsize shown = 0;

	if (!s)
		return g_strdup("");
	if (len < 0)
		len = strlen(s);
	out = g_string_sized_new(MIN((gsize)len, 4 * LORE_TERM_MAX) + 4);
	p = s;
	end = s + len;
	while (p < end) {
		const char *q = p;
		gunichar c;

		/* a run of printable ASCII is shown as it is, at once */
		while (q < end && (guchar)*q >= 0x20 && (guchar)*q < 0x7f &&
		       shown + (gsize)(q - p) < LORE_TERM_MAX)
			q++;
		if (q > p) {
			g_string_append_len(out, p, q - p);
			shown += q - p;
			p = q;
			continue;
		}
		c = g_utf8_get_char_validated(p, end - p);
		/* a megabyte of subject must not flood the terminal */
		if (++shown > LORE_TERM_MAX) {
			g_string_append(out, "...");
			break;
		}

		if (c == (gunichar)-1 || c == (gunichar)-2) {
			g_string_append(out, "\xef\xbf\xbd");
			p++;
			continue;
		}
		if (c == '\t')
			g_string_append_c(out, ' ');
		else if (unsafe_char(c))
			g_string_append_c(out, '?');
		else
			g_string_append_unichar(out, c);
		p = g_utf8_next_char(p);
	}
	return g_string_free(out, FALSE);
}

/* Bytes from @s on that are ASCII, and not NUL (a word at a time: every
 * header and body of every mail is checked, and nearly all are ASCII). */
static size_t
ascii_prefix(const char *s, size_t len)
{
	const guint64 high = 0x8080808080808080ull,
		      ones = 0x0101010101010101ull;
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		guint64 w;

		memcpy(&w, s + i, 8);
		/* a byte >= 0x80, or a zero byte */
		if ((w & high) || ((w - ones) & ~w & high))
			break;
	}
	while (i < len && (guchar)s[i] < 0x80 && s[i])
		i++;
	return i;
}

gboolean
lore_ascii(const char *s, size_t len)
{
	return ascii_prefix(s, len) == len;
}

gboolean
lore_utf8_valid(const char *s, size_t len)
{
	size_t a = ascii_prefix(s, len);

	/* g_utf8_validate() takes NUL as an end; so does this */
	return a == len || (s[a] && g_utf8_validate(s + a, len - a, NULL));
}

/* A blank lore_one_line() drops or makes one space of (not NUL) */
static inline gboolean
is_ascii_blank(guchar c)
{
	return (c && c <= ' ') || c == 0x7f;
}

/*
 * Is [s, s+n) printable ASCII words with one space between them, and
 * nothing else (no tab, line break, control, NUL or 8-bit byte)? Eight
 * bytes at a time: nearly every header value is that once trimmed.
 */
static gboolean
single_spaced(const char *s, size_t n)
{
	const guint64 ones = 0x0101010101010101ull, high = ones * 0x80,
		      low7 = ones * 0x7f, spaces = ones * ' ';
	guint64 carry = 0; /* 0x80 when the byte before was a space */
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		guint64 w, x, sp;

		memcpy(&w, s + i, 8);
		/* a byte below ' ', or 0x7f and above */
		if (((w - spaces) & ~w & high) || (((w + ones) | w) & high))
			return FALSE;
		x = w ^ spaces;
		sp = ~(((x & low7) + low7) | x | low7); /* 0x80 per space */
		if ((sp & (sp >> 8)) || (carry & sp))
			return FALSE;
		carry = sp >> 56;
	}
	for (; i < n; i++) {
		guchar c = s[i];

		if (c < ' ' || c >= 0x7f || (c == ' ' && carry))
			return FALSE;
		carry = c == ' ';
	}
	return TRUE;
}

gssize
lore_one_line_ascii(const char *s, size_t len, char *out)
{
	size_t a = 0, b = len, i;
	char *o = out;
	gboolean sp = FALSE;

	while (a < b && is_ascii_blank(s[a]))
		a++;
	while (b > a && is_ascii_blank(s[b - 1]))
		b--;
	if (single_spaced(s + a, b - a)) {
		memcpy(out, s + a, b - a);
		out[b - a] = '\0';
		return b - a;
	}
	for (i = 0; i < len;) {
		guchar c = s[i];

		if (c >= 0x80 || !c)
			return -1;
		if (c <= ' ' || c == 0x7f) {
			sp = TRUE;
			i++;
			continue;
		}
		if (sp && o > out)
			*o++ = ' ';
		sp = FALSE;
		/* a word: printable ASCII up to the next blank */
		while (i < len && (guchar)(s[i] - 0x21) < 0x5e)
			*o++ = s[i++];
	}
	*o = '\0';
	return o - out;
}

char *
lore_one_line(const char *s, gssize len)
{
	g_autofree char *u = NULL;
	char *out, *o;
	const char *p, *end;
	gboolean sp = FALSE;

	if (!s)
		return g_strdup("");
	if (len < 0)
		len = strlen(s);
	out = g_malloc(len + 1);
	/* nearly every header of every message is plain ASCII */
	if (lore_one_line_ascii(s, len, out) >= 0)
		return out;
	g_free(out);
	u = lore_to_utf8(s, len, NULL);
	len = strlen(u);
	/* u is valid UTF-8: characters kept are copied as they are encoded,
	 * never decoded and encoded again */
	o = out = g_malloc(len + 1);
	for (p = u, end = u + len; p < end;) {
		gboolean blank;
		size_t n = 1;

		if ((guchar)*p < 0x80) {
			blank = (guchar)*p <= ' ' || *p == 0x7f;
		} else {
			blank = g_utf8_get_char(p) < 0xa0; /* C1 controls */
			n = g_utf8_next_char(p) - p;
		}
		if (blank) {
			sp = TRUE;
			p += n;
			continue;
		}
		if (sp && o > out)
			*o++ = ' ';
		sp = FALSE;
		memcpy(o, p, n);
		o += n;
		p += n;
	}
	*o = '\0';
	return out;
}

static gboolean
is_bidi(gunichar c)
{
	return (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

gunichar
lore_find_control(const char *text, guint *line)
{
	size_t pos = 0, len = strlen(text), ll;
	const char *l;
	gboolean in_diff = FALSE;
	guint n = 0;

	/* every control found is a character beyond ASCII */
	if (lore_ascii(text, len)) {
		*line = 0;
		return 0;
	}
	while (lore_next_line(text, len, &pos, &l, &ll)) {
		const char *p, *end = l + ll;
		gunichar cf = 0, bidi = 0;
		gboolean lo = FALSE, ascii = TRUE;

		n++;
		if (ll >= 5 && !memcmp(l, "diff ", 5))
			in_diff = TRUE;
		for (p = l; p < end; p++)
			if ((guchar)*p >= 0x80)
				ascii = FALSE;
		if (ascii)
			continue;
		for (p = l; p < end;) {
			gunichar c = g_utf8_get_char_validated(p, end - p);

			/* a patch keeps the bytes it was sent with: an invalid
			 * one must not hide what follows it on its line */
			if (c == (gunichar)-1 || c == (gunichar)-2) {
				p++;
				continue;
			}
			if (g_unichar_type(c) == G_UNICODE_OTHER_LETTER)
				lo = TRUE;
			else if (g_unichar_type(c) == G_UNICODE_FORMAT && !cf)
				cf = c;
			if (is_bidi(c) && !bidi)
				bidi = c;
			p = g_utf8_next_char(p);
		}
		if ((in_diff && bidi) || (cf && !lo)) {
			*line = n;
			return in_diff && bidi ? bidi : cf;
		}
	}
	*line = 0;
	return 0;
}

char *
lore_strip(char *s)
{
	return g_strstrip(s);
}

gboolean
lore_has_prefix_ci(const char *s, size_t n, const char *prefix)
{
	size_t pl = strlen(prefix);

	return n >= pl && g_ascii_strncasecmp(s, prefix, pl) == 0;
}

gboolean
lore_path_at_or_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) &&
	       (path[n] == '\0' || path[n] == '/' || !strcmp(dir, "/"));
}

size_t
lore_utf8_width(const char *s)
{
	if (!g_utf8_validate(s, -1, NULL))
		return strlen(s);
	return g_utf8_strlen(s, -1);
}

gboolean
lore_charset_7bit_stateful(const char *cs)
{
	const char *p;

	if (!cs)
		return FALSE;
	/* the IANA aliases csISO2022JP... */
	if ((cs[0] | 0x20) == 'c' && (cs[1] | 0x20) == 's')
		cs += 2;
	/* letter by letter, no call: this runs for nearly every message,
	 * whose charset is most often utf-8, us-ascii or iso-8859-N (a NUL
	 * fails every comparison, so nothing is read past the end) */
	switch (cs[0] | 0x20) {
	case 'i': /* ISO-2022-JP, -JP-2, -KR, -CN..., dash or not */
		if ((cs[1] | 0x20) != 's' || (cs[2] | 0x20) != 'o')
			return FALSE;
		p = cs + 3 + (cs[3] == '-');
		return p[0] == '2' && p[1] == '0' && p[2] == '2' && p[3] == '2';
	case 'u': /* UTF-7 */
		if ((cs[1] | 0x20) != 't' || (cs[2] | 0x20) != 'f')
			return FALSE;
		p = cs + 3 + (cs[3] == '-');
		return p[0] == '7' && !p[1];
	case 'h': /* HZ, HZ-GB-2312 */
		return (cs[1] | 0x20) == 'z';
	}
	return FALSE;
}

char *
lore_to_utf8(const char *s, size_t len, const char *charset)
{
	char *out = NULL;
	gboolean nul = memchr(s, '\0', len) != NULL;

	/* valid UTF-8 is taken as it is whatever its label says (a
	 * mislabelled part), except in a 7-bit charset that shifts state
	 * with escapes, whose every text is valid UTF-8 */
	if (!nul && lore_utf8_valid(s, len) &&
	    (!charset || !lore_charset_7bit_stateful(charset)))
		return g_strndup(s, len);
	if (nul) {
		/* NUL bytes are never text: drop them before anything else */
		GString *t = g_string_sized_new(len);
		size_t i;

		for (i = 0; i < len; i++)
			if (s[i])
				g_string_append_c(t, s[i]);
		out = lore_to_utf8(t->str, t->len, charset);
		g_string_free(t, TRUE);
		return out;
	}
	if (charset && *charset && g_ascii_strcasecmp(charset, "utf-8") &&
	    g_ascii_strcasecmp(charset, "utf8") &&
	    g_ascii_strcasecmp(charset, "us-ascii"))
		out = g_convert(s, len, "UTF-8", charset, NULL, NULL, NULL);
	/* unlabelled 8-bit text is most often latin1; text mislabelled as
	 * UTF-8 shows its bad bytes as U+FFFD, as b4 shows them */
	if (!out && !(charset && *charset))
		out =
		    g_convert(s, len, "UTF-8", "ISO-8859-1", NULL, NULL, NULL);
	if (!out)
		out = g_utf8_make_valid(s, len);
	return out;
}

char *
lore_mask_fill(const char *mask, const char *value)
{
	GString *s = g_string_new(NULL);
	const char *p;

	for (p = mask; *p; p++) {
		if (p[0] == '%' && p[1] == 's') {
			g_string_append(s, value);
			p++;
		} else if (p[0] == '%' && p[1] == '%') {
			g_string_append_c(s, '%');
			p++;
		} else {
			g_string_append_c(s, *p);
		}
	}
	return g_string_free(s, FALSE);
}

gboolean
lore_write_all(int fd, const void *data, size_t n)
{
	const char *p = data;

	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return FALSE;
		}
		p += w;
		n -= w;
	}
	return TRUE;
}
