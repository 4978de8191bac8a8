/*
 * subject.c - bracketed patch prefixes and reply markers in subjects, read
 * the way b4 reads them (counters up to 4 digits, vN anywhere in a prefix,
 * PATCHvN split), and git mailinfo's cleanup_subject() rules for the title
 * that goes into a commit.
 */
#include "mail/subject.h"

#include <stdlib.h>
#include <string.h>

static gboolean
is_reply(const char *s)
{
	int n = 0;

	if (!g_ascii_strncasecmp(s, "re:", 3) ||
	    !g_ascii_strncasecmp(s, "aw:", 3) ||
	    !g_ascii_strncasecmp(s, "fwd:", 4))
		return TRUE;
	/* "Sv: [PATCH", "Vs: [PATCH": two or three letters, a colon, '[' */
	while (s[n] && (g_ascii_isalnum(s[n]) || s[n] == '_'))
		n++;
	if ((n == 2 || n == 3) && s[n] == ':') {
		s += n + 1;
		while (*s == ' ' || *s == '\t')
			s++;
		return *s == '[';
	}
	return FALSE;
}

static gboolean
all_digits(const char *s, size_t n)
{
	size_t i;

	if (n == 0)
		return FALSE;
	for (i = 0; i < n; i++)
		if (!g_ascii_isdigit(s[i]))
			return FALSE;
	return TRUE;
}

static void
take_chunk(char *chunk, struct subject *out)
{
	size_t n;
	char *slash;

	/* trailing commas and semicolons are noise */
	n = strlen(chunk);
	while (n && (chunk[n - 1] == ',' || chunk[n - 1] == ';'))
		chunk[--n] = '\0';
	while (*chunk == ',' || *chunk == ';')
		chunk++, n--;
	slash = strchr(chunk, '/');
	if (slash && all_digits(chunk, slash - chunk) && slash - chunk <= 4 &&
	    all_digits(slash + 1, strlen(slash + 1)) &&
	    strlen(slash + 1) <= 4) {
		out->counter = atoi(chunk);
		out->expected = atoi(slash + 1);
		out->counters_inferred = FALSE;
	} else if ((chunk[0] == 'v' || chunk[0] == 'V') &&
		   all_digits(chunk + 1, n - 1) && n - 1 <= 6) {
		out->revision = atoi(chunk + 1);
		out->revision_inferred = FALSE;
	} else if (!g_ascii_strncasecmp(chunk, "rfc", 3)) {
		out->rfc = TRUE;
	} else if (!g_ascii_strncasecmp(chunk, "resend", 6)) {
		out->resend = TRUE;
	} else if (!g_ascii_strncasecmp(chunk, "patch", 5)) {
		out->patch = TRUE;
	}
}

/* Read one leading [...] group (nested brackets flattened) at *pp. */
static gboolean
take_group(const char **pp, struct subject *out)
{
	const char *p = *pp;
	GString *content;
	int depth = 0;
	g_auto(GStrv) words = NULL;
	guint i;

	if (*p != '[')
		return FALSE;
	content = g_string_new(NULL);
	for (; *p; p++) {
		if (*p == '[') {
			depth++;
			continue;
		}
		if (*p == ']') {
			if (--depth == 0)
				break;
			continue;
		}
		g_string_append_c(content, *p);
	}
	if (*p != ']') {
		g_string_free(content, TRUE);
		return FALSE;
	}
	p++;
	while (*p == ' ' || *p == '\t')
		p++;
	*pp = p;
	/* "PATCHv3" means "PATCH v3" */
	for (i = 0; i + 6 < content->len; i++)
		if (!g_ascii_strncasecmp(content->str + i, "patch", 5) &&
		    (content->str[i + 5] == 'v' ||
		     content->str[i + 5] == 'V') &&
		    g_ascii_isdigit(content->str[i + 6]))
			g_string_insert_c(content, i + 5, ' ');
	words = g_strsplit_set(content->str, " \t,;", -1);
	for (i = 0; words[i]; i++)
		if (*words[i])
			take_chunk(words[i], out);
	g_string_free(content, TRUE);
	return TRUE;
}

void
subject_parse(const char *subject, struct subject *out)
{
	const char *p = subject ? subject : "";

	memset(out, 0, sizeof(*out));
	out->revision = out->counter = out->expected = 1;
	out->revision_inferred = out->counters_inferred = TRUE;
	while (*p == ' ' || *p == '\t')
		p++;
	if (is_reply(p)) {
		out->reply = TRUE;
		out->title = g_strdup(p);
		return;
	}
	while (*p == '[' && take_group(&p, out))
		;
	out->title = g_strstrip(g_strdup(p));
}

void
subject_clear(struct subject *s)
{
	g_free(s->title);
	s->title = NULL;
}

char *
subject_strip_prefixes(const char *subject)
{
	const char *p = subject ? subject : "";

	for (;;) {
		if (*p == ' ' || *p == '\t' || *p == ':') {
			p++;
		} else if (!g_ascii_strncasecmp(p, "re:", 3)) {
			p += 3;
		} else if (*p == '[') {
			const char *e = strchr(p, ']');

			if (!e)
				break;
			p = e + 1;
		} else {
			break;
		}
	}
	return g_strstrip(g_strdup(p));
}
