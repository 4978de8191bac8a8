/*
 * am.c - building one am-ready message as b4 writes it: git mailinfo's
 * author, date, subject and message, the "[PATCH vN i/N]" prefix, the
 * trailers merged in by the trailers stage (followup.h), plain UTF-8 text.
 */
#include "write/am.h"
#include "mail/mailinfo.h"
#include "mail/message.h"
#include "mail/rfc2047.h"
#include "core/util.h"

#include "mail/gmimelib.h" /* GMime, loaded on first use */
#include <string.h>

void
am_note_clear(struct am_note *n)
{
	g_free(n->subject);
	if (n->added)
		g_ptr_array_free(n->added, TRUE);
	if (n->ignored)
		g_ptr_array_free(n->ignored, TRUE);
	g_free(n->author_name);
	g_free(n->author_email);
	g_free(n->body);
	memset(n, 0, sizeof(*n));
}

char *
am_subject_prefix(const struct series_entry *e)
{
	const struct spatch *p = e->p;
	GString *s = g_string_new("[PATCH");

	if (p->subj.rfc)
		g_string_append(s, " RFC");
	if (e->reroll_from || !p->revision_inferred ||
	    e->revision != p->revision)
		g_string_append_printf(s, " v%d", e->revision);
	if (!p->counters_inferred)
		g_string_append_printf(s, " %d/%d", p->subj.counter,
				       p->subj.expected);
	g_string_append_c(s, ']');
	return g_string_free(s, FALSE);
}

/* @dt, whose offset from UTC is @off minutes, as am_format_date() writes
 * it */
static char *
format_date(GDateTime *dt, int off)
{
	static const char *const wd[] = {"Mon", "Tue", "Wed", "Thu",
					 "Fri", "Sat", "Sun"};
	static const char *const mon[] = {"Jan", "Feb", "Mar", "Apr",
					  "May", "Jun", "Jul", "Aug",
					  "Sep", "Oct", "Nov", "Dec"};
	int h = off < 0 ? -off : off;

	return g_strdup_printf(
	    "%s, %02d %s %04d %02d:%02d:%02d %c%02d%02d",
	    wd[g_date_time_get_day_of_week(dt) - 1],
	    g_date_time_get_day_of_month(dt),
	    mon[g_date_time_get_month(dt) - 1], g_date_time_get_year(dt),
	    g_date_time_get_hour(dt), g_date_time_get_minute(dt),
	    g_date_time_get_second(dt), off < 0 ? '-' : '+', h / 60, h % 60);
}

char *
am_format_date(const char *date)
{
	GDateTime *dt;
	gint64 t;
	int tz;
	char *s;

	if (!date || !*date)
		return g_strdup(date ? date : "");
	/* the form nearly every mailer writes, read without GMime (which
	 * reads it the same): the wall-clock time is UTC's moved by the
	 * zone */
	if (message_date_plain(date, &t, &tz)) {
		dt = g_date_time_new_from_unix_utc(t + tz);
		s = dt ? format_date(dt, tz / 60) : g_strdup(date);
	} else {
		dt = g_mime_utils_header_decode_date(date);
		if (!dt)
			return g_strdup(date);
		s = format_date(dt, (int)(g_date_time_get_utc_offset(dt) /
					  G_TIME_SPAN_MINUTE));
	}
	if (dt)
		g_date_time_unref(dt);
	return s;
}

/* Python's email.utils quoting rule: these need a quoted display name */
static gboolean
needs_quotes(const char *name)
{
	return strpbrk(name, "()<>@,:;.\"[]\\") != NULL;
}

char *
am_format_addr(const char *name, const char *email)
{
	GString *s;
	const char *p;

	if (!name || !*name || !strcmp(name, email))
		return g_strdup(email);
	if (name[0] == '"' || !needs_quotes(name))
		return g_strdup_printf("%s <%s>", name, email);
	s = g_string_new("\"");
	for (p = name; *p; p++) {
		if (*p == '"' || *p == '\\')
			g_string_append_c(s, '\\');
		g_string_append_c(s, *p);
	}
	g_string_append_printf(s, "\" <%s>", email);
	return g_string_free(s, FALSE);
}

void
am_wrap_header(GString *out, const char *name, const char *value)
{
	g_autofree char *line = g_strconcat(name, ": ", value, NULL);
	g_auto(GStrv) words = NULL;
	size_t width = 0;
	guint i;

	if (lore_utf8_width(line) <= 75) {
		g_string_append(out, line);
		g_string_append_c(out, '\n');
		return;
	}
	/* the name and the first word stay together on the first line */
	words = g_strsplit_set(value, " \t", -1);
	g_string_append(out, name);
	g_string_append_c(out, ':');
	width = strlen(name) + 1;
	{
		gboolean first = TRUE, line_start = FALSE;

		for (i = 0; words[i]; i++) {
			size_t w = lore_utf8_width(words[i]);

			if (!*words[i])
				continue;
			if (!first && width + 1 + w > 75 && !line_start) {
				g_string_append(out, "\n ");
				width = 1;
				line_start = TRUE;
			}
			/* a word after a space, but first on a folded line */
			if (!line_start) {
				g_string_append_c(out, ' ');
				width++;
			}
			g_string_append(out, words[i]);
			width += w;
			first = line_start = FALSE;
		}
	}
	g_string_append_c(out, '\n');
}

/* @body in base64, 76 columns, its last line ended, then the blank line
 * that ends the message. */
static void
am_base64_body(GString *s, const char *body)
{
	size_t n = strlen(body), i, bn;
	g_autofree char *copy =
	    n && body[n - 1] == '\n' ? NULL : g_strconcat(body, "\n", NULL);
	const char *src = copy ? copy : body;
	g_autofree char *b = g_base64_encode((const guchar *)src, strlen(src));

	g_string_append(s, "Content-Transfer-Encoding: base64\n\n");
	bn = strlen(b);
	for (i = 0; i < bn; i += 76) {
		g_string_append_len(s, b + i, MIN(bn - i, 76));
		g_string_append_c(s, '\n');
	}
	g_string_append_c(s, '\n');
}

char *
am_message(const struct series_entry *e, GPtrArray *followups,
	   const struct followup_opts *o, gboolean for_cover,
	   struct am_note *note)
{
	struct message *m = e->p->msg;
	struct mailinfo mi;
	g_autofree char *prefix = am_subject_prefix(e);
	g_autofree char *subject = NULL, *from = NULL, *body = NULL;
	GString *s = g_string_new(NULL);
	size_t pos = 0, len, ll;
	const char *l;

	mailinfo_run(m, message_am_body(m), &mi);
	subject = g_strdup_printf("%s %s", prefix, mi.subject);
	if (note) {
		note->subject = g_strdup(subject);
		note->added = g_ptr_array_new_with_free_func(g_free);
		note->ignored = g_ptr_array_new_with_free_func(g_free);
	}
	if (o->add_trailers && !for_cover)
		body = followup_merge(m, mi.body, followups, o,
				      note ? note->added : NULL,
				      note ? note->ignored : NULL);
	else
		body = g_strdup(mi.body);
	if (note) {
		note->author_name = g_strdup(mi.author_name);
		note->author_email = g_strdup(mi.author_email);
		note->body = g_strdup(body);
	}
	from =
	    am_format_addr(*mi.author_name ? mi.author_name : mi.author_email,
			   mi.author_email);
	if (mailinfo_looks_inbody(body)) {
		/* git would read that first line as an in-body header: one
		 * of ours, and the blank line after it, end them first */
		char *b = g_strdup_printf("From: %s\n\n%s", from, body);

		g_free(body);
		body = b;
	}
	if (strstr(mi.subject, "=?")) {
		/* a title that still reads as an encoded word (a subject
		 * encoded twice) would be decoded again by git am */
		g_autofree char *w = rfc2047_encode(mi.subject);

		g_free(subject);
		subject = g_strdup_printf("%s %s", prefix, w);
	}
	am_wrap_header(s, "Subject", subject);
	am_wrap_header(s, "From", from);
	{
		g_autofree char *date = am_format_date(mi.date);

		am_wrap_header(s, "Date", date);
	}
	g_string_append_printf(s, "Message-Id: <%s>\n", m->msgid);
	g_string_append(s, "MIME-Version: 1.0\n"
			   "Content-Type: text/plain; charset=\"utf-8\"\n");
	if (strstr(body, "\r\n")) {
		/* a patch's own CRs at line ends (a file with CRLF lines,
		 * sent in base64 or quoted-printable): in 8bit git am's
		 * mailsplit would remove them */
		am_base64_body(s, body);
		mailinfo_clear(&mi);
		return g_string_free(s, FALSE);
	}
	g_string_append_printf(s, "Content-Transfer-Encoding: %s\n\n",
			       lore_ascii(body, strlen(body)) ? "7bit"
							      : "8bit");
	/* every line, the last (empty) one included, ends in a newline */
	len = strlen(body);
	while (lore_next_line(body, len, &pos, &l, &ll)) {
		while (ll && l[ll - 1] == '\r')
			ll--;
		g_string_append_len(s, l, ll);
		g_string_append_c(s, '\n');
	}
	if (!len || body[len - 1] == '\n')
		g_string_append_c(s, '\n');
	mailinfo_clear(&mi);
	return g_string_free(s, FALSE);
}
