/*
 * body.c - b4's tests for a diff and a diffstat in a mail's text (DIFF_RE
 * and DIFFSTAT_RE, line by line). Cutting the text into commit message,
 * trailer block, basement and signature is the trailers stage's
 * (trailers/bodyparts.h).
 */
#include "mail/body.h"
#include "core/util.h"

#include <string.h>

/* ^\s*\d+ file.*\d+ (insertion|deletion), case-insensitively, per line */
static gboolean
diffstat_line(const char *l, size_t n)
{
	size_t i = 0, j;
	g_autofree char *low = NULL;
	const char *p;

	while (i < n && g_ascii_isspace(l[i]))
		i++;
	j = i;
	while (i < n && g_ascii_isdigit(l[i]))
		i++;
	if (i == j || !lore_has_prefix_ci(l + i, n - i, " file"))
		return FALSE;
	low = g_ascii_strdown(l + i + 5, n - i - 5);
	for (p = low; *p; p++)
		if (g_ascii_isdigit(*p) &&
		    (g_str_has_prefix(p + 1, " insertion") ||
		     g_str_has_prefix(p + 1, " deletion")))
			return TRUE;
	return FALSE;
}

/* "diff --git \w/\S+ \w/\S+" */
static gboolean
diff_git_line(const char *l, size_t n)
{
	size_t i = 11, k;

	if (!lore_has_prefix_ci(l, n, "diff --git "))
		return FALSE;
	for (k = 0; k < 2; k++) {
		size_t s;

		if (i + 2 > n || !(g_ascii_isalnum(l[i]) || l[i] == '_') ||
		    l[i + 1] != '/')
			return FALSE;
		i += 2;
		s = i;
		while (i < n && !g_ascii_isspace(l[i]))
			i++;
		if (i == s)
			return FALSE;
		if (k == 0) {
			if (i >= n || l[i] != ' ')
				return FALSE;
			i++;
		}
	}
	return TRUE;
}

/*
 * One pass over the lines of @text for what is asked (@diff, @diffstat
 * not NULL), until each is answered: a patch's text is long, and series
 * detection asks both of every message.
 */
void
body_scan(const char *text, gboolean *diff, gboolean *diffstat)
{
	size_t pos = 0, len = strlen(text), ll;
	const char *line;
	gboolean prev_minus = FALSE, want_diff = diff != NULL,
		 want_stat = diffstat != NULL;

	if (diff)
		*diff = FALSE;
	if (diffstat)
		*diffstat = FALSE;
	while ((want_diff || want_stat) &&
	       lore_next_line(text, len, &pos, &line, &ll)) {
		/* both diff prefixes start with a 'g' or a 'd', either case */
		char c = ll ? line[0] | 0x20 : '\0';

		if (want_diff &&
		    ((prev_minus && ll >= 3 && !memcmp(line, "+++", 3)) ||
		     (c == 'g' &&
		      lore_has_prefix_ci(line, ll, "GIT binary patch")) ||
		     (c == 'd' && diff_git_line(line, ll)))) {
			*diff = TRUE;
			want_diff = FALSE;
		}
		prev_minus = ll >= 3 && !memcmp(line, "---", 3);
		if (want_stat && diffstat_line(line, ll)) {
			*diffstat = TRUE;
			want_stat = FALSE;
		}
	}
}

gboolean
body_has_diff(const char *text)
{
	gboolean d;

	body_scan(text, &d, NULL);
	return d;
}

gboolean
body_has_diffstat(const char *text)
{
	gboolean d;

	body_scan(text, NULL, &d);
	return d;
}
