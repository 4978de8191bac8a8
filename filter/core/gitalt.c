/*
 * gitalt.c - GIT_ALTERNATE_OBJECT_DIRECTORIES's relative entries made
 * absolute (see gitalt.h). The entries are found as git's
 * parse_alt_odb_entry() and unquote_c_style() find them; only the
 * relative ones are written again, every other byte is copied.
 */
#include "core/gitalt.h"

#include <string.h>

/* git's PATH_SEP */
#define SEP ':'

enum kind {
	PLAIN,	 /* up to the next ':' */
	QUOTED,	 /* '"' to its closing quote */
	COMMENT, /* '#' up to the next ':' */
};

struct entry {
	const char *start, *end; /* end: the ':' (or the byte after the
				  * closing quote) or the final NUL */
	enum kind kind;
	gboolean relative;
};

/* The end of the C-quoted text at @p (a '"'), past its closing quote,
 * its first unquoted byte in *@first (-1: empty); NULL when git's
 * unquote_c_style() finds the quoting broken */
static const char *
quoted_end(const char *p, int *first)
{
	int c, d1, d2;

	*first = -1;
	for (p++;;) {
		c = (guchar)*p++;
		if (c == '"')
			return p;
		if (c == '\0')
			return NULL;
		if (c == '\\') {
			c = (guchar)*p++;
			if (c >= '0' && c <= '3') {
				/* \ooo, the first digit at most 3 */
				d1 = p[0];
				if (d1 < '0' || d1 > '7')
					return NULL;
				d2 = p[1];
				if (d2 < '0' || d2 > '7')
					return NULL;
				c = ((c - '0') << 6) | ((d1 - '0') << 3) |
				    (d2 - '0');
				p += 2;
			} else if (!c || !strchr("abfnrtv\\\"", c)) {
				return NULL;
			}
		}
		if (*first < 0)
			*first = c;
	}
}

/* The entry starting at @p (not at the end) */
static void
entry_at(const char *p, struct entry *e)
{
	const char *q;
	int first;

	e->start = p;
	if (*p == '#') {
		e->kind = COMMENT;
		e->end = strchrnul(p, SEP);
		e->relative = FALSE;
	} else if (*p == '"' && (q = quoted_end(p, &first))) {
		e->kind = QUOTED;
		e->end = q;
		/* empty or starting with a NUL: git skips it or fails on
		 * it, read from anywhere */
		e->relative = first > 0 && first != '/';
	} else {
		e->kind = PLAIN;
		e->end = strchrnul(p, SEP);
		e->relative = e->end > p && *p != '/';
	}
}

/* The next entry's start after @e */
static const char *
next(const struct entry *e)
{
	return *e->end ? e->end + 1 : e->end;
}

gboolean
gitalt_relative(const char *value)
{
	struct entry e;
	const char *p;

	for (p = value; p && *p; p = next(&e)) {
		entry_at(p, &e);
		if (e.relative)
			return TRUE;
	}
	return FALSE;
}

/* @n bytes of @s C-quoted as unquote_c_style() reads them back: only '"'
 * and '\' need a backslash */
static void
quote_into(GString *out, const char *s, gsize n)
{
	gsize i;

	for (i = 0; i < n; i++) {
		if (s[i] == '"' || s[i] == '\\')
			g_string_append_c(out, '\\');
		g_string_append_c(out, s[i]);
	}
}

static void
absolute_into(GString *out, const struct entry *e, const char *base)
{
	gboolean quote = e->kind == QUOTED || strchr(base, SEP);

	if (!quote) {
		g_string_append_printf(out, "%s/", base);
		g_string_append_len(out, e->start, e->end - e->start);
		return;
	}
	g_string_append_c(out, '"');
	quote_into(out, base, strlen(base));
	g_string_append_c(out, '/');
	if (e->kind == QUOTED)
		/* its text between the quotes is quoted already */
		g_string_append_len(out, e->start + 1, e->end - e->start - 2);
	else
		quote_into(out, e->start, e->end - e->start);
	g_string_append_c(out, '"');
}

char *
gitalt_absolute(const char *value, const char *base)
{
	GString *out;
	struct entry e;
	const char *p;

	if (!gitalt_relative(value) || !base || !g_path_is_absolute(base))
		return NULL;
	out = g_string_new(NULL);
	for (p = value; *p; p = next(&e)) {
		entry_at(p, &e);
		if (e.relative)
			absolute_into(out, &e, base);
		else
			g_string_append_len(out, e.start, e.end - e.start);
		/* the separator, or the byte git skips after a quote */
		if (*e.end)
			g_string_append_c(out, *e.end);
	}
	return g_string_free(out, FALSE);
}
