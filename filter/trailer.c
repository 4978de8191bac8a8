/*
 * trailer.c - trailer lines: finding them (git trailer syntax with b4's
 * heuristics for what reviewers send), normalising person values, matching
 * senders, and cutting a commit message into message / trailers / basement /
 * signature so that new trailers can be added the way b4 adds them.
 */
#include "trailer.h"
#include "message.h"
#include "util.h"

#include <string.h>

static const char *const utility_names[] = {
    "fixes",	  "link",      "buglink",     "closes",	  "obsoleted-by",
    "message-id", "change-id", "base-commit", "based-on", NULL,
};
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
static const char *const ignored_names[] = {
    "phone",
    "email",
    "prerequisite-message-id",
    NULL,
};

static gboolean
in_set(const char *const *set, const char *s)
{
	for (; *set; set++)
		if (!strcmp(*set, s))
			return TRUE;
	return FALSE;
}

/* b4's test for an address: \S+@\S+\.\S+ */
static gboolean
looks_like_person(const char *v)
{
	const char *at;

	for (at = strchr(v, '@'); at; at = strchr(at + 1, '@')) {
		const char *p;

		if (at == v || g_ascii_isspace(at[-1]))
			continue;
		for (p = at + 1; *p && !g_ascii_isspace(*p); p++)
			if (*p == '.' && p > at + 1 && p[1] &&
			    !g_ascii_isspace(p[1]))
				return TRUE;
	}
	return FALSE;
}

static gboolean
has_url(const char *v)
{
	return strstr(v, "http://") || strstr(v, "https://");
}

/* Split "Name <addr>", "\"Name\" <addr>", "addr (Name)" or "addr". */
static void
split_person(const char *v, char **name, char **email)
{
	const char *lt = strchr(v, '<');

	if (lt) {
		const char *e = lt + 1;
		size_t n = strcspn(e, "<>");
		char *nm = g_strstrip(g_strndup(v, lt - v));
		size_t l = strlen(nm);

		if (l >= 2 && nm[0] == '"' && nm[l - 1] == '"') {
			GString *u = g_string_new(NULL);
			size_t i;

			for (i = 1; i + 1 < l; i++) {
				if (nm[i] == '\\' && i + 2 < l)
					i++;
				g_string_append_c(u, nm[i]);
			}
			g_free(nm);
			nm = g_string_free(u, FALSE);
		}
		*name = nm;
		*email = g_strstrip(g_strndup(e, n));
		return;
	}
	{
		g_autofree char *s = g_strstrip(g_strdup(v));
		char *sp = strpbrk(s, " \t");

		if (sp) {
			char *rest = g_strstrip(g_strdup(sp));
			size_t rl = strlen(rest);

			*sp = '\0';
			if (rl >= 2 && rest[0] == '(' && rest[rl - 1] == ')') {
				*name = g_strndup(rest + 1, rl - 2);
				g_free(rest);
			} else {
				*name = g_strdup("");
				g_free(rest);
			}
		} else {
			*name = g_strdup("");
		}
		*email = g_strdup(s);
	}
}

/* The length of a quoted name ("A. U. Thor") that @v opens, up to its
 * closing quote before the '<', 0 when @v does not start with one. */
static size_t
quoted_name(const char *v)
{
	const char *lt = strchr(v, '<'), *e = lt;

	if (!lt || *v != '"')
		return 0;
	while (e > v && (e[-1] == ' ' || e[-1] == '\t'))
		e--;
	return e - v >= 2 && e[-1] == '"' ? (size_t)(e - v) : 0;
}

struct trailer *
trailer_new(const char *name, const char *value, const char *extinfo)
{
	struct trailer *t = g_new0(struct trailer, 1);

	t->name = g_strdup(name);
	t->lname = g_ascii_strdown(name, -1);
	t->extinfo = g_strdup(extinfo);
	if (in_set(utility_names, t->lname) || strstr(value, "://")) {
		t->type = TRAILER_UTILITY;
		t->value = g_strdup(value);
	} else if (looks_like_person(value)) {
		t->type = TRAILER_PERSON;
		split_person(value, &t->addr_name, &t->addr_email);
		if (*t->addr_name && quoted_name(value))
			/* a name written in quotes keeps them, as git keeps
			 * the line (and b4 0.12) */
			t->value = g_strdup_printf("%.*s <%s>",
						   (int)quoted_name(value),
						   value, t->addr_email);
		else if (*t->addr_name)
			t->value = g_strdup_printf("%s <%s>", t->addr_name,
						   t->addr_email);
		else
			t->value = g_strdup(t->addr_email);
	} else {
		t->type = TRAILER_UNKNOWN;
		t->value = g_strdup(value);
	}
	return t;
}

struct trailer *
trailer_copy(const struct trailer *t)
{
	struct trailer *c = g_new0(struct trailer, 1);

	c->name = g_strdup(t->name);
	c->lname = g_strdup(t->lname);
	c->value = g_strdup(t->value);
	c->extinfo = g_strdup(t->extinfo);
	c->type = t->type;
	c->addr_name = g_strdup(t->addr_name);
	c->addr_email = g_strdup(t->addr_email);
	c->raw = g_strdup(t->raw);
	c->src = t->src;
	return c;
}

void
trailer_free(struct trailer *t)
{
	if (!t)
		return;
	g_free(t->name);
	g_free(t->lname);
	g_free(t->value);
	g_free(t->extinfo);
	g_free(t->addr_name);
	g_free(t->addr_email);
	g_free(t->raw);
	g_free(t);
}

GPtrArray *
trailer_array_new(void)
{
	return g_ptr_array_new_with_free_func((GDestroyNotify)trailer_free);
}

/* Equal without case (nearly all are ASCII: no lower-cased copies). */
static gboolean
caseless_eq(const char *a, const char *b)
{
	g_autofree char *la = NULL, *lb = NULL;

	if (g_str_is_ascii(a) && g_str_is_ascii(b))
		return !g_ascii_strcasecmp(a, b);
	la = g_utf8_strdown(a, -1);
	lb = g_utf8_strdown(b, -1);
	return !strcmp(la, lb);
}

gboolean
trailer_eq(const struct trailer *a, const struct trailer *b)
{
	if (strcmp(a->lname, b->lname))
		return FALSE;
	/* a person is the same written "Name" <addr> or Name <addr> */
	if (a->type == TRAILER_PERSON && b->type == TRAILER_PERSON)
		return caseless_eq(a->addr_email, b->addr_email) &&
		       caseless_eq(a->addr_name, b->addr_name);
	return caseless_eq(a->value, b->value);
}

gboolean
trailer_in(GPtrArray *list, const struct trailer *t)
{
	guint i;

	for (i = 0; i < list->len; i++)
		if (trailer_eq(list->pdata[i], t))
			return TRUE;
	return FALSE;
}

char *
trailer_string(const struct trailer *t, gboolean with_extinfo)
{
	const char *x = t->extinfo;

	if (with_extinfo && t->raw) {
		/* a "# note" tail is in the raw line, a "[note]" line is not */
		while (x && (*x == ' ' || *x == '\t'))
			x++;
		if (!x || !*x || *x == '#')
			return g_strdup(t->raw);
		return g_strdup_printf("%s\n%s", t->raw, t->extinfo);
	}
	if (!with_extinfo || !x || !*x)
		return g_strdup_printf("%s: %s", t->name, t->value);
	while (*x == ' ' || *x == '\t')
		x++;
	if (*x == '#')
		return g_strdup_printf("%s: %s%s", t->name, t->value,
				       t->extinfo);
	return g_strdup_printf("%s: %s\n%s", t->name, t->value, t->extinfo);
}

/* Drop a "+detail" from the local part, in place. */
static void
drop_detail(char *a)
{
	char *plus = strchr(a, '+'), *at = strchr(a, '@');

	if (plus && at && plus < at)
		memmove(plus, at, strlen(at) + 1);
}

gboolean
trailer_email_eq(const struct trailer *t, const char *email)
{
	g_autofree char *our = NULL, *their = NULL;
	char *oat, *tat;
	int od = 0, td = 0;
	const char *p;
	size_t ol, tl;

	if (!t->addr_email || !email)
		return FALSE;
	our = g_ascii_strdown(t->addr_email, -1);
	their = g_ascii_strdown(email, -1);
	if (!strcmp(our, their))
		return TRUE;
	if (!strchr(our, '@') || !strchr(their, '@'))
		return FALSE;
	drop_detail(our);
	drop_detail(their);
	if (!strcmp(our, their))
		return TRUE;
	oat = strchr(our, '@');
	tat = strchr(their, '@');
	if (oat - our != tat - their || strncmp(our, their, oat - our))
		return FALSE;
	for (p = oat; *p; p++)
		od += *p == '.';
	for (p = tat; *p; p++)
		td += *p == '.';
	if (ABS(od - td) != 1)
		return FALSE;
	oat++;
	tat++;
	ol = strlen(oat);
	tl = strlen(tat);
	/* one domain is the other with one more label in front */
	if (ol > tl)
		return oat[ol - tl - 1] == '.' && !strcmp(oat + ol - tl, tat);
	return tl > ol && tat[tl - ol - 1] == '.' &&
	       !strcmp(tat + tl - ol, oat);
}

gboolean
trailer_sender_ok(const struct trailer *t, const struct message *src)
{
	g_autofree char *tn = NULL, *hn = NULL;

	if (t->type != TRAILER_PERSON)
		return TRUE;
	if (trailer_email_eq(t, src->from_email))
		return TRUE;
	tn = g_utf8_strdown(t->addr_name ? t->addr_name : "", -1);
	hn = g_utf8_strdown(*src->from_name ? src->from_name : src->from_email,
			    -1);
	if (*tn && !strcmp(tn, hn))
		return TRUE;
	/* "Last, First" in From: every part must appear in the trailer */
	if (strchr(hn, ',')) {
		g_auto(GStrv) parts = g_strsplit(hn, ",", -1);
		guint i;

		for (i = 0; parts[i]; i++) {
			g_strstrip(parts[i]);
			if (*parts[i] && !strstr(tn, parts[i]))
				return FALSE;
		}
		return TRUE;
	}
	return FALSE;
}

/*
 * Match "^\s*(\w\S+):\s+(\S.*)": a token of two or more characters starting
 * with a word character and ending in ':', white space, then a value.
 */
static gboolean
parse_trailer_line(const char *line, char **name, char **value)
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
	*name = g_strndup(tok, colon - tok);
	*value = g_strdup(v);
	return TRUE;
}

/* "(.*\S+)(\s+#[^#]+)$": split a trailing "  # comment" off @value. */
static char *
split_extinfo(char *value)
{
	char *hash = strrchr(value, '#');
	char *k;

	if (!hash || !hash[1] || hash == value || !g_ascii_isspace(hash[-1]))
		return NULL;
	for (k = hash; k > value && g_ascii_isspace(k[-1]); k--)
		;
	if (k == value)
		return NULL;
	{
		char *x = g_strdup(k);

		*k = '\0';
		return x;
	}
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
	GPtrArray *cut = g_ptr_array_new();
	const char *lead = text, *ind = text;
	char **lines, *p;
	guint i;

	/* b4 strips the text: the first line's indentation is only kept for
	 * its text as written */
	while (g_ascii_isspace(*lead) && lead != sig) {
		if (*lead == '\n')
			ind = lead + 1;
		lead++;
	}
	out->buf = g_strndup(text, sig ? (size_t)(sig - text) : strlen(text));
	g_strstrip(out->buf);
	out->lines = g_ptr_array_new();
	out->orig = raw ? g_ptr_array_new() : NULL;
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

void
trailer_find(const char *text, gboolean followup, GPtrArray *trailers,
	     GPtrArray *others)
{
	struct lines ls;
	gboolean was_trailer = FALSE;
	guint i, nothers = 0;

	joined_lines(text ? text : "", &ls, !followup);
	for (i = 0; i < ls.lines->len; i++) {
		char *line = ls.lines->pdata[i];
		char *name = NULL, *value = NULL, *lname, *x;
		size_t l;

		/* strip('\r') */
		while (*line == '\r')
			line++;
		l = strlen(line);
		while (l && line[l - 1] == '\r')
			line[--l] = '\0';
		if (parse_trailer_line(line, &name, &value)) {
			gboolean skip = FALSE;

			lname = g_ascii_strdown(name, -1);
			if (followup) {
				if (in_set(ignored_names, lname))
					skip = TRUE;
				else if (nothers &&
					 (!strcmp(lname, "subject") ||
					  !strcmp(lname, "date") ||
					  !strcmp(lname, "from")))
					skip = TRUE;
				else if (!g_str_is_ascii(lname))
					skip = TRUE;
				else if (!looks_like_person(value) &&
					 !in_set(nonperson_names, lname))
					skip = TRUE;
				else if (has_url(value) &&
					 !in_set(link_names, lname))
					skip = TRUE;
			}
			g_free(lname);
			if (skip) {
				g_free(name);
				g_free(value);
				continue;
			}
			x = split_extinfo(value);
			g_ptr_array_add(trailers, trailer_new(name, value, x));
			if (!followup)
				((struct trailer *)
				     trailers->pdata[trailers->len - 1])
				    ->raw = raw_text(ls.orig->pdata[i]);
			g_free(x);
			g_free(name);
			g_free(value);
			was_trailer = TRUE;
			continue;
		}
		if (l > 2 && was_trailer && is_bracket_line(line)) {
			struct trailer *t = trailers->pdata[trailers->len - 1];

			g_free(t->extinfo);
			t->extinfo = g_strdup(line);
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

GPtrArray *
trailer_from_reply(const struct message *src, const char *body)
{
	GPtrArray *all = trailer_array_new();
	GPtrArray *out = trailer_array_new();
	guint i;

	trailer_find(body, TRUE, all, NULL);
	for (i = 0; i < all->len; i++) {
		struct trailer *t = all->pdata[i];

		if (in_set(reply_bad_names, t->lname))
			continue;
		all->pdata[i] = NULL;
		t->src = src;
		g_ptr_array_add(out, t);
	}
	g_ptr_array_free(all, TRUE);
	return out;
}
