/*
 * pullreq.c - a "[GIT PULL]" mail's text read as git request-pull writes
 * it (git's builtin request-pull.sh: "changes since commit", "are
 * available in the Git repository at:", "for you to fetch changes up
 * to", shortlog, diffstat), and as people write it by hand. b4 pr reads
 * the same lines with three regular expressions; this reads them line by
 * line, every field bounded, since the text comes from anyone.
 */
#include "mail/pullreq.h"
#include "core/util.h"

#include <string.h>

/* the transports a mail may name: never ext::, file:// or a bare path */
static const char *const schemes[] = {"git://", "https://", "http://",
				      "ssh://"};

/* a shortlog larger than this is not a count anyone wrote */
#define PULLREQ_MAX_COMMITS 10000000u

void
pullreq_clear(struct pullreq *p)
{
	g_free(p->url);
	g_free(p->ref);
	g_free(p->base);
	g_free(p->tip);
	memset(p, 0, sizeof(*p));
}

static gboolean
has_scheme(const char *s)
{
	guint i;

	for (i = 0; i < G_N_ELEMENTS(schemes); i++)
		if (g_str_has_prefix(s, schemes[i]))
			return TRUE;
	return FALSE;
}

gboolean
pullreq_url_ok(const char *url)
{
	const char *rest = strstr(url, "://");
	const char *c;

	if (!has_scheme(url) || strlen(url) > PULLREQ_MAX_URL)
		return FALSE;
	rest += 3;
	/* a host that git or ssh could take for an option */
	if (!*rest || *rest == '-' || *rest == '/')
		return FALSE;
	for (c = url; *c; c++)
		if (*c <= ' ' || *c >= 0x7f || strchr("\"'<>\\`{}|^", *c))
			return FALSE;
	return TRUE;
}

gboolean
pullreq_ref_ok(const char *ref)
{
	size_t n = strlen(ref);
	const char *c;

	if (!n || n > PULLREQ_MAX_REF || ref[0] == '-' || ref[0] == '/' ||
	    ref[0] == '.' || ref[n - 1] == '/' || ref[n - 1] == '.' ||
	    g_str_has_suffix(ref, ".lock") || strstr(ref, "..") ||
	    strstr(ref, "//") || strstr(ref, "/."))
		return FALSE;
	for (c = ref; *c; c++)
		if (!g_ascii_isalnum(*c) && !strchr("/._-+", *c))
			return FALSE;
	return TRUE;
}

/* [s, s+n) holds @needle, ASCII case ignored: where it ends, or NULL */
static const char *
find_ci(const char *s, size_t n, const char *needle)
{
	size_t k = strlen(needle), i;

	for (i = 0; k <= n && i <= n - k; i++)
		if (!g_ascii_strncasecmp(s + i, needle, k))
			return s + i + k;
	return NULL;
}

/* The commit id after @phrase on the line (5 to 40 hex digits, then
 * nothing or ':'), lower case; NULL when there is none. */
static char *
id_after(const char *line, size_t n, const char *phrase)
{
	const char *end = line + n, *p = find_ci(line, n, phrase), *h;

	if (!p)
		return NULL;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	for (h = p; h < end && g_ascii_isxdigit(*h); h++)
		if (h - p > 40)
			return NULL;
	if (h - p < 5 || h - p > 40 ||
	    (h < end && *h != ':' && *h != ' ' && *h != '\t' && *h != '\r'))
		return NULL;
	return g_ascii_strdown(p, h - p);
}

/* The line's words, white space and a lone backslash dropped; NULL when it
 * has more than 3 (prose, not a repository line). */
static char **
words(const char *line, size_t n)
{
	g_autofree char *s = g_strndup(line, n);
	g_auto(GStrv) w = g_strsplit_set(lore_strip(s), " \t", -1);
	GPtrArray *a = g_ptr_array_new_with_free_func(g_free);
	guint i;

	for (i = 0; w[i]; i++)
		if (*w[i] && strcmp(w[i], "\\"))
			g_ptr_array_add(a, g_strdup(w[i]));
	if (a->len > 3) {
		g_ptr_array_free(a, TRUE);
		return NULL;
	}
	g_ptr_array_set_free_func(a, NULL);
	g_ptr_array_add(a, NULL);
	return (char **)g_ptr_array_free(a, FALSE);
}

/* A repository line: "URL", "URL REF" (b4's two forms). */
static gboolean
repo_line(const char *line, size_t n, char **url, char **ref)
{
	g_auto(GStrv) w = NULL;

	if (n > PULLREQ_MAX_URL + PULLREQ_MAX_REF + 16)
		return FALSE;
	w = words(line, n);
	if (!w || !w[0] || !pullreq_url_ok(w[0]) || (w[1] && w[2]) ||
	    (w[1] && !pullreq_ref_ok(w[1])))
		return FALSE;
	*url = g_strdup(w[0]);
	*ref = g_strdup(w[1]);
	return TRUE;
}

/* A line that holds only a ref (under a URL written alone). */
static char *
ref_line(const char *line, size_t n)
{
	g_auto(GStrv) w = NULL;

	if (n > PULLREQ_MAX_REF + 16)
		return NULL;
	w = words(line, n);
	if (!w || !w[0] || w[1] || has_scheme(w[0]) || !pullreq_ref_ok(w[0]))
		return NULL;
	return g_strdup(w[0]);
}

static gboolean
number(const char **p, guint *out)
{
	guint64 v = 0;
	int k = 0;

	while (g_ascii_isdigit(**p) && k < 9)
		v = v * 10 + (guint)(*(*p)++ - '0'), k++;
	*out = (guint)v;
	return k > 0 && !g_ascii_isdigit(**p);
}

gboolean
pullreq_stat_line(const char *line, guint *files, guint *ins, guint *del)
{
	const char *p = line;
	guint v;

	*files = *ins = *del = 0;
	while (*p == ' ')
		p++;
	if (!number(&p, files))
		return FALSE;
	if (g_str_has_prefix(p, " files changed"))
		p += strlen(" files changed");
	else if (g_str_has_prefix(p, " file changed"))
		p += strlen(" file changed");
	else
		return FALSE;
	while (g_str_has_prefix(p, ", ")) {
		p += 2;
		if (!number(&p, &v))
			return FALSE;
		if (g_str_has_prefix(p, " insertion"))
			*ins = v;
		else if (g_str_has_prefix(p, " deletion"))
			*del = v;
		else
			return FALSE;
		p = strchr(p, ')');
		if (!p)
			return FALSE;
		p++;
	}
	return *p == 0 || *p == '\r';
}

/* "Name (N):" at the start of a line: a shortlog author and his count */
static guint
shortlog_count(const char *line, size_t n)
{
	const char *open;
	guint v;

	if (n < 5 || n > 512 || line[0] == ' ' || line[0] == '\t' ||
	    line[n - 1] != ':' || line[n - 2] != ')')
		return 0;
	open = g_strrstr_len(line, n, " (");
	if (!open)
		return 0;
	open += 2;
	if (!number(&open, &v) || open != line + n - 2)
		return 0;
	return v;
}

struct scan {
	const char *text;
	size_t len;
	size_t pos;
	gboolean at_next; /* the line after "repository at:" is the URL */
	char *url_alone;  /* a URL without a ref, taken when nothing better */
	gboolean alone_wants_ref; /* ... its ref may be the next line */
	gboolean alone_sure;	  /* ... it came under "repository at:" */
};

/* The repository lines: request-pull's (the URL under "repository at:",
 * its ref beside it or on the line under it), then URL and ref on one
 * line anywhere, then the first URL alone. */
static void
scan_repo(struct scan *s, const char *line, size_t n, struct pullreq *p)
{
	char *url = NULL, *ref = NULL;

	if (s->alone_wants_ref) {
		s->alone_wants_ref = FALSE;
		/* indented as the URL is: not a word of the prose after it */
		if (n && (line[0] == ' ' || line[0] == '\t') &&
		    (ref = ref_line(line, n))) {
			p->url = g_steal_pointer(&s->url_alone);
			p->ref = ref;
			return;
		}
		if (s->alone_sure) {
			p->url = g_steal_pointer(&s->url_alone);
			return;
		}
	}
	if (!repo_line(line, n, &url, &ref)) {
		if (find_ci(line, n, "repository at"))
			s->at_next = TRUE;
		return;
	}
	if (ref) {
		p->url = url;
		p->ref = ref;
		return;
	}
	if (s->url_alone && !s->at_next) {
		g_free(url);
		return;
	}
	g_free(s->url_alone);
	s->url_alone = url;
	s->alone_wants_ref = TRUE;
	s->alone_sure = s->at_next;
}

gboolean
pullreq_parse(const char *text, struct pullreq *p)
{
	struct scan s = {text, strlen(text), 0, FALSE, NULL, FALSE, FALSE};
	const char *line;
	size_t n;
	char *id;
	guint f, i, d;

	memset(p, 0, sizeof(*p));
	while (lore_next_line(s.text, s.len, &s.pos, &line, &n)) {
		if (n && line[n - 1] == '\r')
			n--;
		if (n && line[0] == '>')
			continue;
		if (!p->base &&
		    (id = id_after(line, n, "changes since commit")))
			p->base = id;
		if (!p->tip && (id = id_after(line, n, "changes up to")))
			p->tip = id;
		if (!p->url)
			scan_repo(&s, line, n, p);
		if (p->url)
			p->commits = (guint)MIN((guint64)p->commits +
						    shortlog_count(line, n),
						PULLREQ_MAX_COMMITS);
		if (n < 200) {
			g_autofree char *l = g_strndup(line, n);

			if (pullreq_stat_line(l, &f, &i, &d)) {
				p->stat = TRUE;
				p->files = f, p->insertions = i,
				p->deletions = d;
			}
		}
	}
	if (!p->url && s.url_alone)
		p->url = g_steal_pointer(&s.url_alone);
	g_free(s.url_alone);
	if (!p->url)
		pullreq_clear(p);
	return p->url != NULL;
}
