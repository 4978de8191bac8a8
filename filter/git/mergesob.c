/*
 * mergesob.c - git merge's --signoff and its whitespace clean-up, done on
 * the message before the merge commit is made with plumbing (see
 * mergesob.h). The rules are git 2.39's: sequencer.c's append_signoff()
 * and has_conforming_footer(), trailer.c's find_trailer_start() with the
 * default ":" separator and no trailer.* settings, commit.c's
 * ignore_non_trailer() for a text without comment lines, and
 * strbuf_stripspace(). t9109 compares the commits with git merge's own.
 */
#include "git/mergesob.h"

#include <string.h>

/* git's isspace(): its ctype table has only these four */
static gboolean
git_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* the line at @s holds only white space */
static gboolean
blank_line(const char *s)
{
	while (*s && *s != '\n' && git_space(*s))
		s++;
	return !*s || *s == '\n';
}

static const char *
next_line(const char *s)
{
	const char *nl = strchr(s, '\n');

	return nl ? nl + 1 : s + strlen(s);
}

/* where the line before offset @len starts; -1 before the first */
static gssize
last_line(const char *buf, gssize len)
{
	gssize i;

	if (len <= 0)
		return -1;
	for (i = len - 2; i >= 0; i--)
		if (buf[i] == '\n')
			return i + 1;
	return 0;
}

/* where "Token:" ends: the token is letters, digits and '-', then
 * perhaps blanks; -1 when the line is no "Token: value" */
static gssize
separator_at(const char *line)
{
	gboolean blank = FALSE;
	const char *c;

	for (c = line; *c; c++) {
		if (*c == ':')
			return c - line;
		if (!blank && (g_ascii_isalnum(*c) || *c == '-'))
			continue;
		if (c != line && (*c == ' ' || *c == '\t')) {
			blank = TRUE;
			continue;
		}
		break;
	}
	return -1;
}

static gboolean
git_generated(const char *l)
{
	return g_str_has_prefix(l, "Signed-off-by: ") ||
	       g_str_has_prefix(l, "(cherry picked from commit ");
}

/* Where the trailer block of @buf's first @len bytes starts (@len when
 * there is none): after a blank line, lines that are all trailers, or
 * hold one git writes and are a quarter trailers. The first paragraph,
 * the title, never is one. */
static gsize
trailer_start(const char *buf, gsize len)
{
	const char *s;
	gssize title, l;
	gboolean only_blank = TRUE, known = FALSE;
	int trailers = 0, others = 0, cont = 0;

	for (s = buf; s < buf + len && !blank_line(s); s = next_line(s))
		;
	title = s - buf;
	for (l = last_line(buf, len); l >= title; l = last_line(buf, l)) {
		const char *bol = buf + l;

		if (blank_line(bol)) {
			if (only_blank)
				continue;
			others += cont;
			if ((known && trailers * 3 >= others) ||
			    (trailers && !others))
				return next_line(bol) - buf;
			return len;
		}
		only_blank = FALSE;
		if (git_generated(bol)) {
			trailers++;
			cont = 0;
			known = TRUE;
		} else if (separator_at(bol) >= 1 && !git_space(bol[0])) {
			trailers++;
			cont = 0;
		} else if (git_space(bol[0])) {
			cont++;
		} else {
			others += 1 + cont;
			cont = 0;
		}
	}
	return len;
}

/* the bytes of empty lines that end @buf (ignore_non_trailer() without
 * comment lines): the sign-off goes before them */
static gsize
trailing_empty(const char *buf, gsize len)
{
	gsize bol = 0, boc = 0;

	while (bol < len) {
		const char *nl = memchr(buf + bol, '\n', len - bol);
		gsize next = nl ? (gsize)(nl - buf) + 1 : len;

		/* git's quirk kept: a run that starts at offset 0 is not one */
		if (buf[bol] == '\n') {
			if (!boc)
				boc = bol;
		} else {
			boc = 0;
		}
		bol = next;
	}
	return boc ? len - boc : 0;
}

/* has_conforming_footer(): 0 no trailer block, 1 one without @sob, 2
 * with it, 3 with it last. @buf ends (NUL) at the block's end. */
static int
footer(const char *buf, const char *sob)
{
	gsize len = strlen(buf), sl = strlen(sob);
	gsize end = len - trailing_empty(buf, len);
	gsize start = trailer_start(buf, end);
	const char *p, *next;
	gboolean found = FALSE, last = FALSE, joins = FALSE;

	if (start == end)
		return 0;
	for (p = buf + start; p < buf + end; p = next) {
		next = next_line(p);
		if (next > buf + end)
			next = buf + end;
		/* a blank-led line continues a "Token:" one */
		if (joins && git_space(*p))
			continue;
		last = (gsize)(buf + end - p) >= sl && !memcmp(p, sob, sl);
		found |= last;
		joins = separator_at(p) >= 1;
	}
	return last ? 3 : found ? 2 : 1;
}

/* the text holds nothing that takes git's rarer paths */
static gboolean
plain(const char *msg)
{
	const char *l;

	for (l = msg; *l; l = next_line(l))
		if (*l == '#' || g_str_has_prefix(l, "Conflicts:"))
			return FALSE;
	return TRUE;
}

char *
mergesob_append(const char *msg, const char *ident)
{
	g_autofree char *sob = g_strdup_printf("Signed-off-by: %s\n", ident);
	gsize sl = strlen(sob), skip, len;
	GString *b;
	int has;

	if (!plain(msg) || strchr(ident, '\n'))
		return NULL;
	b = g_string_new(msg);
	skip = trailing_empty(b->str, b->len);
	if (!skip && b->len && b->str[b->len - 1] != '\n')
		g_string_append_c(b, '\n');
	len = b->len - skip;
	if (len == sl && !memcmp(b->str, sob, sl)) {
		has = 3;
	} else {
		g_autofree char *cut = g_strndup(b->str, len);

		has = footer(cut, sob);
	}
	if (!has) {
		/* room for a title, or a blank line before the sign-off */
		if (!len)
			g_string_insert(b, len, "\n\n");
		else if (len == 1 || b->str[len - 2] != '\n')
			g_string_insert(b, len, "\n");
	}
	if (has != 3)
		g_string_insert(b, b->len - skip, sob);
	return g_string_free(b, FALSE);
}

char *
mergesob_stripspace(const char *msg)
{
	GString *out = g_string_new(NULL);
	const char *p = msg;
	gsize empties = 0;

	while (*p) {
		const char *next = next_line(p);
		gsize n = next - p;

		while (n && git_space(p[n - 1]))
			n--;
		if (n) {
			if (empties && out->len)
				g_string_append_c(out, '\n');
			empties = 0;
			g_string_append_len(out, p, n);
			g_string_append_c(out, '\n');
		} else {
			empties++;
		}
		p = next;
	}
	return g_string_free(out, FALSE);
}
