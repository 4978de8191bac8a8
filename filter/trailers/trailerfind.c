/*
 * trailerfind.c - trailer lines in text, git trailer syntax with b4's
 * heuristics (LoreMessage.find_trailers()): "Token: value" lines, a
 * wrapped address or Fixes: subject joined again, a "# note" tail or a
 * "[note]" line attached, nothing after a "-- " signature; in a reply,
 * only what reviewers send. A commit message's trailers keep their text
 * as written.
 */
#include "mail/message.h"
#include "trailers/trailer-int.h"
#include "core/util.h"

#include <string.h>

static const char *const link_names[] = {"link", "buglink", "closes", NULL};
static const char *const nonperson_names[] = {
    "link", "buglink",	    "closes",	 "fixes",	"subject",
    "date", "obsoleted-by", "change-id", "base-commit", NULL,
};
/* Never trailers in a review reply: they are mail or patch metadata. */
static const char *const reply_bad_names[] = {
    "from",	 "author",	"cc",	       "to",	    "date", "subject",
    "subscribe", "unsubscribe", "base-commit", "change-id", NULL,
};
/* The tokens of the trailers a reply sends that need no address:
 * nonperson_names less reply_bad_names */
static const char *const sent_names[] = {"link",  "buglink",	  "closes",
					 "fixes", "obsoleted-by", NULL};
/* Header fields a reply quotes once it has said something else. */
static const char *const quoted_header_names[] = {"subject", "date", "from",
						  NULL};
static const char *const ignored_names[] = {
    "phone",
    "email",
    "prerequisite-message-id",
    NULL,
};

static gboolean
has_url(const char *v)
{
	return strstr(v, "http://") || strstr(v, "https://");
}

/*
 * Match "^\s*(\w\S+):\s+(\S.*)": a token of two or more characters starting
 * with a word character and ending in ':', white space, then a value. The
 * token is *@name's *@nlen bytes (not NUL-ended), the value *@value to the
 * end of @line.
 */
static gboolean
parse_trailer_line(const char *line, const char **name, size_t *nlen,
		   const char **value)
{
	const char *p = line, *tok, *colon, *v;

	while (g_ascii_isspace(*p))
		p++;
	tok = p;
	if (!(g_ascii_isalnum(*tok) || *tok == '_' || (guchar)*tok >= 0x80))
		return FALSE;
	while (*p && !g_ascii_isspace(*p))
		p++;
	colon = p - 1;
	if (*colon != ':' || colon - tok < 2 || !*p)
		return FALSE;
	v = p;
	while (g_ascii_isspace(*v))
		v++;
	if (!*v)
		return FALSE;
	*name = tok;
	*nlen = colon - tok;
	*value = v;
	return TRUE;
}

/* Is the @n-byte token @tok one of the NULL-ended lower-case @set, in
 * any case? */
static gboolean
in_set_ci(const char *const *set, const char *tok, size_t n)
{
	for (; *set; set++)
		if (strlen(*set) == n && !g_ascii_strncasecmp(*set, tok, n))
			return TRUE;
	return FALSE;
}

/* "(.*\S+)(\s+#[^#]+)$": where a trailing "  # comment" of @value starts,
 * or NULL when it has none. */
static const char *
split_extinfo(const char *value)
{
	const char *hash = strrchr(value, '#'), *k;

	if (!hash || !hash[1] || hash == value || !g_ascii_isspace(hash[-1]))
		return NULL;
	for (k = hash; k > value && g_ascii_isspace(k[-1]); k--)
		;
	return k == value ? NULL : k;
}

static gboolean
is_bracket_line(const char *line)
{
	const char *p = line, *e;

	while (g_ascii_isspace(*p))
		p++;
	if (*p != '[')
		return FALSE;
	e = line + strlen(line);
	while (e > p && g_ascii_isspace(e[-1]))
		e--;
	if (e - p < 3 || e[-1] != ']')
		return FALSE;
	return !memchr(p + 1, ']', e - p - 2);
}

static gboolean
hexword(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!g_ascii_isdigit(s[i]) && !(s[i] >= 'a' && s[i] <= 'f'))
			return FALSE;
	return n > 0;
}

/* "Fixes: abc123 (subject" that a mailer wrapped before its ')' */
static gboolean
is_open_fixes(const char *l)
{
	const char *c = strchr(l, ':'), *p, *h;

	if (!c || c == l || memchr(l, ' ', c - l) || !g_ascii_isspace(c[1]))
		return FALSE;
	p = c + 1;
	while (g_ascii_isspace(*p))
		p++;
	h = p;
	while (*p && !g_ascii_isspace(*p))
		p++;
	if (!hexword(h, p - h) || !g_ascii_isspace(*p))
		return FALSE;
	while (g_ascii_isspace(*p))
		p++;
	return *p == '(' && p[1] && !strchr(p, ')');
}

/* "Signed-off-by: Long Name" with the <address> wrapped to the next line */
static gboolean
is_open_person(const char *l, const char *next)
{
	const char *c = strchr(l, ':');
	size_t nl = strlen(next);

	if (!c || c == l || memchr(l, ' ', c - l) || !g_ascii_isspace(c[1]) ||
	    strchr(c, '<'))
		return FALSE;
	return nl >= 3 && next[0] == '<' && next[nl - 1] == '>' &&
	       !memchr(next, '>', nl - 1);
}

/*
 * The lines of @text before its "-- " signature, cut in place in one copy
 * of it (@buf), with wrapped trailers joined again (those strings are
 * allocated in @joined). Lines are borrowed from either; with @raw, @orig
 * holds, for each, its text as written (the two lines of a joined one),
 * else it is NULL.
 */
struct lines {
	char *buf;
	GPtrArray *lines;  /* char *, borrowed */
	GPtrArray *orig;   /* char *, borrowed; or NULL */
	GPtrArray *joined; /* char *, owned */
};

static void
joined_lines(const char *text, struct lines *out, gboolean raw)
{
	static char empty[] = "";
	const char *sig = strstr(text, "\n-- \n");
	GPtrArray *cut;
	const char *lead = text, *ind = text;
	char **lines, *p;
	guint i, n = 2;

	/* b4 strips the text: the first line's indentation is only kept for
	 * its text as written */
	while (g_ascii_isspace(*lead) && lead != sig) {
		if (*lead == '\n')
			ind = lead + 1;
		lead++;
	}
	out->buf = g_strndup(text, sig ? (size_t)(sig - text) : strlen(text));
	g_strstrip(out->buf);
	/* the arrays made once at their size, not grown line by line */
	for (p = out->buf; (p = strchr(p, '\n')); p++)
		n++;
	cut = g_ptr_array_sized_new(n);
	out->lines = g_ptr_array_sized_new(n);
	out->orig = raw ? g_ptr_array_sized_new(n) : NULL;
	out->joined = g_ptr_array_new_with_free_func(g_free);
	for (p = out->buf; *out->buf;) {
		char *nl = strchr(p, '\n');

		g_ptr_array_add(cut, p);
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
	g_ptr_array_add(cut, NULL);
	lines = (char **)cut->pdata;
	for (i = 0; lines[i]; i++) {
		char *j = NULL;

		if (lines[i + 1] && is_open_fixes(lines[i]) &&
		    strchr(lines[i + 1], ')') && lines[i + 1][0] != ')')
			j = g_strdup_printf("%s %s", lines[i], lines[i + 1]);
		else if (lines[i + 1] && is_open_person(lines[i], lines[i + 1]))
			j = g_strdup_printf("%s %s", lines[i], lines[i + 1]);
		if (j && raw) {
			char *o =
			    g_strdup_printf("%s\n%s", lines[i], lines[i + 1]);

			g_ptr_array_add(out->joined, o);
			g_ptr_array_add(out->orig, o);
		} else if (raw) {
			g_ptr_array_add(out->orig, lines[i]);
		}
		if (j) {
			g_ptr_array_add(out->joined, j);
			g_ptr_array_add(out->lines, j);
			i++;
		} else {
			g_ptr_array_add(out->lines, lines[i]);
		}
	}
	if (raw && out->orig->len && lead > ind) {
		char *o = g_strdup_printf("%.*s%s", (int)(lead - ind), ind,
					  (char *)out->orig->pdata[0]);

		g_ptr_array_add(out->joined, o);
		out->orig->pdata[0] = o;
	}
	/* b4 appends a newline before splitting: one empty last line */
	g_ptr_array_add(out->lines, empty);
	if (raw)
		g_ptr_array_add(out->orig, empty);
	g_ptr_array_free(cut, TRUE);
}

/* A trailer's text as written: its line(s), each without the CRs at its
 * ends (the parsed line lost those too). */
static char *
raw_text(const char *orig)
{
	g_auto(GStrv) parts = g_strsplit(orig, "\n", -1);
	guint i;

	for (i = 0; parts[i]; i++) {
		char *p = parts[i];
		size_t n;

		while (*p == '\r')
			p++;
		n = strlen(p);
		while (n && p[n - 1] == '\r')
			n--;
		memmove(parts[i], p, n);
		parts[i][n] = '\0';
	}
	return g_strjoinv("\n", parts);
}

/*
 * Could a line of @text be a trailer, as parse_trailer_line() reads one
 * ("Token: value")? Read in place, without the copies and arrays
 * trailer_find() makes; two replies in three have no such line at all.
 * With @sent, there must also be a line that could give a trailer
 * trailer_from_reply() keeps: its token one of sent_names, or an '@' in
 * the rest of it or in the line after (a person's address, wrapped or
 * not; a token with its address wrapped has no value of its own). A
 * "Nit: ..." reply then costs no more than reading it.
 */
static gboolean
any_candidate(const char *text, gboolean sent)
{
	size_t len = strlen(text), pos = 0, ll;
	const char *l;
	gboolean cand = FALSE, keep = !sent;

	while (lore_next_line(text, len, &pos, &l, &ll)) {
		const char *p = l, *end = l + ll, *colon, *v, *next;

		while (end > p && end[-1] == '\r')
			end--;
		while (p < end && g_ascii_isspace(*p))
			p++;
		if (p == end ||
		    !(g_ascii_isalnum(*p) || *p == '_' || (guchar)*p >= 0x80))
			continue;
		colon = p;
		while (colon < end && !g_ascii_isspace(*colon))
			colon++;
		if (colon[-1] != ':' || colon - 1 - p < 2)
			continue;
		for (v = colon; v < end && g_ascii_isspace(*v); v++)
			;
		cand |= v < end;
		if (!keep) {
			/* the line after this one */
			next = memchr(text + pos, '\n', len - pos);
			if (!next)
				next = text + len;
			keep = in_set_ci(sent_names, p, colon - 1 - p) ||
			       memchr(colon, '@', end - colon) ||
			       memchr(text + pos, '@', next - (text + pos));
		}
		if (cand && keep)
			return TRUE;
	}
	return FALSE;
}

/*
 * Is the trailer line "@name: @value" what a reviewer does not send: a
 * field of their own (phone, email), a mail header quoted after other
 * text, a token that is not ASCII, a value that is neither an address nor
 * that of a known utility trailer, or a URL outside a link trailer?
 */
static gboolean
skip_in_reply(const char *name, size_t nlen, const char *value, guint nothers)
{
	size_t i;

	if (in_set_ci(ignored_names, name, nlen))
		return TRUE;
	if (nothers && in_set_ci(quoted_header_names, name, nlen))
		return TRUE;
	for (i = 0; i < nlen; i++)
		if ((guchar)name[i] >= 0x80)
			return TRUE;
	if (!trailer_looks_like_person(value) &&
	    !in_set_ci(nonperson_names, name, nlen))
		return TRUE;
	return has_url(value) && !in_set_ci(link_names, name, nlen);
}

/* trailer_find() once its text is worth reading */
static void
find_in(const char *text, gboolean followup, GPtrArray *trailers,
	GPtrArray *others)
{
	struct lines ls;
	gboolean was_trailer = FALSE;
	guint i, nothers = 0;

	joined_lines(text ? text : "", &ls, !followup);
	for (i = 0; i < ls.lines->len; i++) {
		char *line = ls.lines->pdata[i];
		const char *name, *value, *x;
		size_t l, nlen;

		/* strip('\r') */
		while (*line == '\r')
			line++;
		l = strlen(line);
		while (l && line[l - 1] == '\r')
			line[--l] = '\0';
		if (parse_trailer_line(line, &name, &nlen, &value)) {
			g_autofree char *raw = NULL;

			if (followup &&
			    skip_in_reply(name, nlen, value, nothers))
				continue;
			x = split_extinfo(value);
			if (!followup)
				raw = raw_text(ls.orig->pdata[i]);
			g_ptr_array_add(trailers,
					trailer_make(name, nlen, value,
						     x ? (size_t)(x - value)
						       : strlen(value),
						     x, raw));
			was_trailer = TRUE;
			continue;
		}
		if (l > 2 && was_trailer && is_bracket_line(line)) {
			struct trailer *t = trailers->pdata[trailers->len - 1];

			/* a trailer is one allocation: made again with it */
			trailers->pdata[trailers->len - 1] =
			    trailer_copy_with(t, line);
			trailer_free(t);
			was_trailer = FALSE;
			continue;
		}
		was_trailer = FALSE;
		nothers++;
		if (others)
			g_ptr_array_add(others, g_strdup(line));
	}
	g_ptr_array_free(ls.lines, TRUE);
	if (ls.orig)
		g_ptr_array_free(ls.orig, TRUE);
	g_ptr_array_free(ls.joined, TRUE);
	g_free(ls.buf);
}

void
trailer_find(const char *text, gboolean followup, GPtrArray *trailers,
	     GPtrArray *others)
{
	/* nothing to find, and no other lines asked for */
	if (followup && !others && !any_candidate(text ? text : "", FALSE))
		return;
	find_in(text, followup, trailers, others);
}

GPtrArray *
trailer_from_reply(const struct message *src, const char *body)
{
	GPtrArray *out = trailer_array_new();
	guint i;

	if (!any_candidate(body ? body : "", TRUE))
		return out;
	find_in(body, TRUE, out, NULL);
	/* metadata is dropped where it stands, the rest keeps its order */
	for (i = out->len; i > 0; i--) {
		struct trailer *t = out->pdata[i - 1];

		if (trailer_in_set(reply_bad_names, t->lname))
			g_ptr_array_remove_index(out, i - 1);
		else
			t->src = src;
	}
	return out;
}

gboolean
trailer_reply_sends(const struct message *src, const char *body)
{
	GPtrArray *l = trailer_from_reply(src, body);
	gboolean any = l->len > 0;

	g_ptr_array_free(l, TRUE);
	return any;
}
