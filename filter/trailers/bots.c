/*
 * bots.c - a bot's report held back (bots.h). A report is told by what
 * it says, not by who sends it: its own lines (not the quoted patch)
 * say "if you fix the issue" and "kindly add" (or "please add") the
 * tags, as the kernel test robot (0-day, since 2018), syzbot and the
 * bots that copy their text write it.
 */
#include "trailers/bots.h"
#include "trailers/trailer.h"
#include "mail/message.h"
#include "core/util.h"

#include <string.h>

/* the start of a report's own text searched for its phrase */
#define BOTS_SCAN_MAX (64u << 10)

/* @r's own lines (no "> " quotes), lower case, white space runs as one */
static char *
own_text(const char *body)
{
	GString *s = g_string_new(NULL);
	size_t pos = 0, len = strlen(body), ll, i;
	const char *l;

	while (s->len < BOTS_SCAN_MAX &&
	       lore_next_line(body, len, &pos, &l, &ll)) {
		if (ll && l[0] == '>')
			continue;
		for (i = 0; i < ll; i++) {
			char c = g_ascii_tolower(l[i]);

			if (g_ascii_isspace(c) || c == '\n') {
				if (s->len && s->str[s->len - 1] != ' ')
					g_string_append_c(s, ' ');
			} else {
				g_string_append_c(s, c);
			}
		}
		if (s->len && s->str[s->len - 1] != ' ')
			g_string_append_c(s, ' ');
	}
	return g_string_free(s, FALSE);
}

/* Does @body hold "issue" in any (ASCII) case? Not strcasestr(), whose
 * case rules are the locale's. */
static gboolean
has_issue(const char *body)
{
	const char *p;

	for (p = body; (p = strpbrk(p, "iI")); p++)
		if (!g_ascii_strncasecmp(p, "issue", 5))
			return TRUE;
	return FALSE;
}

static gboolean
is_report(const char *body)
{
	g_autofree char *t = NULL;
	const char *fix;

	/* the phrase's last word stands whole on one line of the body: a
	 * body without it is no report, and is not copied to be sure */
	if (!has_issue(body))
		return FALSE;
	t = own_text(body);
	fix = strstr(t, "if you fix the issue");

	return fix && (strstr(fix, "kindly add") || strstr(fix, "please add"));
}

gboolean
bots_hold(struct followups *f, const struct followup_sent *e)
{
	if (!is_report(message_body(e->reply->msg)))
		return FALSE;
	if (!f->held)
		f->held = g_ptr_array_new();
	g_ptr_array_add(f->held, (gpointer)e);
	return TRUE;
}

void
bots_report(struct followups *f)
{
	guint i, k;

	if (!f->held)
		return;
	lore_info("---");
	lore_info("NOTE: held back, a bot's tags for a fix made in a separate "
		  "patch (\"if you fix the issue ..., kindly add\"), not for "
		  "this one:");
	for (i = 0; i < f->held->len; i++) {
		const struct followup_sent *e = f->held->pdata[i];
		const struct spatch *r = e->reply;
		g_autofree char *from = NULL, *sf = NULL;

		for (k = 0; k < e->trailers->len; k++) {
			g_autofree char *line =
			    trailer_string(e->trailers->pdata[k], FALSE);
			g_autofree char *sl = lore_term_safe(line, -1);

			lore_info("    x %s", sl);
		}
		from = g_strdup_printf("%s <%s>", r->msg->from_name,
				       r->msg->from_email);
		sf = lore_term_safe(from, -1);
		lore_info("     Msg From: %s", sf);
	}
}

void
bots_clear(struct followups *f)
{
	if (f->held)
		g_ptr_array_free(f->held, TRUE);
	f->held = NULL;
}
