/*
 * mailinfo.c - git mailinfo's body rules, re-implemented for one message:
 * in-body headers (only at the top, blank lines between them skipped,
 * continuation lines folded), the scissors line (perforation of dashes and
 * ">8"/"8<", longer than 8 and more than a third of the line), and the patch
 * break ("---", "diff -", "Index: ") after which none of that applies.
 */
#include "mailinfo.h"
#include "message.h"
#include "subject.h"
#include "util.h"

#include <string.h>

gboolean
mailinfo_is_scissors(const char *line, size_t len)
{
	size_t i;
	int scissors = 0, gap = 0, perforation = 0;
	gboolean in_perf = FALSE;
	const char *first = NULL, *last = NULL;
	long visible;

	for (i = 0; i < len; i++) {
		const char *c = line + i;

		if (g_ascii_isspace(*c)) {
			if (in_perf) {
				perforation++;
				gap++;
			}
			continue;
		}
		last = c;
		if (!first)
			first = c;
		if (*c == '-') {
			in_perf = TRUE;
			perforation++;
			continue;
		}
		if (i + 1 < len &&
		    ((c[0] == '>' && (c[1] == '8' || c[1] == '%')) ||
		     ((c[0] == '8' || c[0] == '%') && c[1] == '<'))) {
			in_perf = TRUE;
			perforation += 2;
			scissors += 2;
			i++;
			last = c + 1;
			continue;
		}
		in_perf = FALSE;
	}
	visible = (first && last) ? last - first + 1 : 0;
	return scissors && visible >= 8 && visible < perforation * 3 &&
	       gap * 2 < perforation;
}

static gboolean
patch_break(const char *l, size_t n)
{
	size_t i;

	if (lore_has_prefix_ci(l, n, "diff -") || (n >= 7 && !memcmp(l, "Index: ", 7)))
		return TRUE;
	if (n >= 3 && !memcmp(l, "---", 3)) {
		if (n >= 5 && l[3] == ' ' && !g_ascii_isspace(l[4]))
			return TRUE;
		for (i = 3; i < n; i++)
			if (!g_ascii_isspace(l[i]))
				return FALSE;
		return TRUE;
	}
	return FALSE;
}

/* "From:", "Subject:", "Date:" (any case) followed by white space */
static const char *
inbody_header(const char *l, size_t n, size_t *vstart)
{
	static const char *const names[] = { "From", "Subject", "Date" };
	guint i;

	if (n >= 8 && !memcmp(l, "[PATCH]", 7) && g_ascii_isspace(l[7])) {
		*vstart = 0;
		return "Subject";
	}
	for (i = 0; i < G_N_ELEMENTS(names); i++) {
		size_t k = strlen(names[i]);

		if (n > k + 1 && !g_ascii_strncasecmp(l, names[i], k) &&
		    l[k] == ':' && g_ascii_isspace(l[k + 1])) {
			*vstart = k + 1;
			return names[i];
		}
	}
	return NULL;
}

static void
set_header(struct mailinfo *mi, const char *name, const char *value)
{
	g_autofree char *v = lore_one_line(value, -1);

	if (!strcmp(name, "Subject")) {
		g_free(mi->subject);
		mi->subject = subject_strip_prefixes(v);
	} else if (!strcmp(name, "Date")) {
		g_free(mi->date);
		mi->date = g_steal_pointer(&v);
	} else {
		g_free(mi->author_name);
		g_free(mi->author_email);
		message_parse_addr(v, &mi->author_name, &mi->author_email);
	}
}

void
mailinfo_run(const struct message *m, const char *body, struct mailinfo *mi)
{
	size_t pos = 0, len = strlen(body), ll;
	const char *l;
	GString *out = g_string_sized_new(len);
	gboolean header_stage = TRUE, in_patch = FALSE;
	const char *pending = NULL; /* the in-body header being folded */
	GString *pval = g_string_new(NULL);

	mi->author_name = g_strdup(m->from_name);
	mi->author_email = g_strdup(m->from_email);
	mi->date = g_strdup(m->date_hdr ? m->date_hdr : "");
	mi->subject = subject_strip_prefixes(m->subject);

	while (lore_next_line(body, len, &pos, &l, &ll)) {
		gboolean has_nl = pos <= len && l + ll < body + len;
		size_t vs;
		const char *h;

		if (!in_patch && patch_break(l, ll))
			in_patch = TRUE;
		if (in_patch)
			goto keep;
		if (mailinfo_is_scissors(l, ll)) {
			/* everything above the scissors is not for the log */
			if (pending)
				set_header(mi, pending, pval->str);
			pending = NULL;
			g_string_truncate(out, 0);
			header_stage = TRUE;
			continue;
		}
		if (header_stage) {
			if (ll == 0)
				continue;
			if (pending && (l[0] == ' ' || l[0] == '\t')) {
				g_string_append_len(pval, l, ll);
				continue;
			}
			if (pending)
				set_header(mi, pending, pval->str);
			pending = NULL;
			h = inbody_header(l, ll, &vs);
			if (h) {
				pending = h;
				g_string_assign(pval, "");
				g_string_append_len(pval, l + vs, ll - vs);
				continue;
			}
			header_stage = FALSE;
		}
keep:
		g_string_append_len(out, l, ll);
		if (has_nl)
			g_string_append_c(out, '\n');
	}
	if (pending)
		set_header(mi, pending, pval->str);
	g_string_free(pval, TRUE);
	mi->body = g_string_free(out, FALSE);
}

void
mailinfo_clear(struct mailinfo *mi)
{
	g_free(mi->author_name);
	g_free(mi->author_email);
	g_free(mi->date);
	g_free(mi->subject);
	g_free(mi->body);
	memset(mi, 0, sizeof(*mi));
}
