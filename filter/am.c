/*
 * am.c - building one am-ready message. Trailer merging follows b4's
 * fix_trailers(): follow-ups, then links, then Cc from --cc-trailers, in
 * the order given, reordered by trailer-order past the last Signed-off-by,
 * deduplicated against what the patch already has, and the user's own
 * Signed-off-by always last.
 */
#include "am.h"
#include "body.h"
#include "mailinfo.h"
#include "message.h"
#include "rfc2047.h"
#include "trailer.h"
#include "util.h"

#include <fnmatch.h>
#include <gmime/gmime.h>
#include <string.h>

void
am_note_clear(struct am_note *n)
{
	g_free(n->subject);
	if (n->added)
		g_ptr_array_free(n->added, TRUE);
	if (n->ignored)
		g_ptr_array_free(n->ignored, TRUE);
	memset(n, 0, sizeof(*n));
}

char *
am_subject_prefix(const struct series_entry *e)
{
	const struct spatch *p = e->p;
	GString *s = g_string_new("[PATCH");

	if (p->subj.rfc)
		g_string_append(s, " RFC");
	if (e->reroll_from || !p->revision_inferred || e->revision != p->revision)
		g_string_append_printf(s, " v%d", e->revision);
	if (!p->counters_inferred)
		g_string_append_printf(s, " %d/%d", p->subj.counter,
				       p->subj.expected);
	g_string_append_c(s, ']');
	return g_string_free(s, FALSE);
}

char *
am_format_date(const char *date)
{
	static const char *const wd[] = { "Mon", "Tue", "Wed", "Thu",
					  "Fri", "Sat", "Sun" };
	static const char *const mon[] = { "Jan", "Feb", "Mar", "Apr",
					   "May", "Jun", "Jul", "Aug",
					   "Sep", "Oct", "Nov", "Dec" };
	GDateTime *dt = date && *date ? g_mime_utils_header_decode_date(date)
				      : NULL;
	GTimeSpan off;
	char *s;
	int h;

	if (!dt)
		return g_strdup(date ? date : "");
	off = g_date_time_get_utc_offset(dt) / G_TIME_SPAN_MINUTE;
	h = (int)(off < 0 ? -off : off);
	s = g_strdup_printf("%s, %02d %s %04d %02d:%02d:%02d %c%02d%02d",
			    wd[g_date_time_get_day_of_week(dt) - 1],
			    g_date_time_get_day_of_month(dt),
			    mon[g_date_time_get_month(dt) - 1],
			    g_date_time_get_year(dt), g_date_time_get_hour(dt),
			    g_date_time_get_minute(dt),
			    g_date_time_get_second(dt), off < 0 ? '-' : '+',
			    h / 60, h % 60);
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
	g_autofree char *line = g_strdup_printf("%s: %s", name, value);
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
	g_string_append_printf(out, "%s:", name);
	width = strlen(name) + 1;
	{
		gboolean first = TRUE, line_start = FALSE;

		for (i = 0; words[i]; i++) {
			size_t w = lore_utf8_width(words[i]);

			if (!*words[i])
				continue;
			if (first) {
				g_string_append_printf(out, " %s", words[i]);
				width += 1 + w;
				first = FALSE;
				continue;
			}
			if (width + 1 + w > 75 && !line_start) {
				g_string_append(out, "\n ");
				width = 1;
				line_start = TRUE;
			}
			if (line_start) {
				g_string_append(out, words[i]);
				width += w;
				line_start = FALSE;
			} else {
				g_string_append_printf(out, " %s", words[i]);
				width += 1 + w;
			}
		}
	}
	g_string_append_c(out, '\n');
}

static struct trailer *
my_sob(const struct am_opts *o)
{
	g_autofree char *v = NULL;

	if (!o->user_name || !o->user_email)
		return NULL;
	v = g_strdup_printf("%s <%s>", o->user_name, o->user_email);
	return trailer_new("Signed-off-by", v, NULL);
}

static gboolean
remove_eq(GPtrArray *list, const struct trailer *t, gboolean free_it)
{
	guint i;

	for (i = 0; i < list->len; i++) {
		if (trailer_eq(list->pdata[i], t)) {
			if (free_it)
				trailer_free(list->pdata[i]);
			g_ptr_array_remove_index(list, i);
			return TRUE;
		}
	}
	return FALSE;
}

/* Python's sort key for Cc addresses: domain + local part. */
static char *
cc_key(const char *email)
{
	const char *at = strchr(email, '@');

	if (!at || at == email)
		return g_strdup(email);
	return g_strdup_printf("%s%.*s", at + 1, (int)(at - email), email);
}

struct addr {
	char *name, *email, *key;
};

static int
by_cc_key(gconstpointer a, gconstpointer b)
{
	const struct addr *x = *(struct addr *const *)a;
	const struct addr *y = *(struct addr *const *)b;

	return strcmp(x->key, y->key);
}

static void
addr_free(struct addr *a)
{
	g_free(a->name);
	g_free(a->email);
	g_free(a->key);
	g_free(a);
}

static void
add_addrs(GPtrArray *out, const char *hdr)
{
	InternetAddressList *l;
	int i, n;

	if (!hdr)
		return;
	l = internet_address_list_parse(NULL, hdr);
	if (!l)
		return;
	n = internet_address_list_length(l);
	for (i = 0; i < n; i++) {
		InternetAddress *ia = internet_address_list_get_address(l, i);
		struct addr *a;

		if (!INTERNET_ADDRESS_IS_MAILBOX(ia))
			continue;
		a = g_new0(struct addr, 1);
		/* decoded names may hold line breaks: a trailer is one line */
		a->name = lore_one_line(internet_address_get_name(ia), -1);
		a->email = lore_one_line(internet_address_mailbox_get_addr(
						 INTERNET_ADDRESS_MAILBOX(ia)),
					 -1);
		a->key = cc_key(a->email);
		g_ptr_array_add(out, a);
	}
	g_object_unref(l);
}

static void
add_cc_trailers(const struct message *m, GPtrArray *body_tr, GPtrArray *newt,
		GPtrArray *owned)
{
	GPtrArray *addrs = g_ptr_array_new_with_free_func((GDestroyNotify)addr_free);
	guint i, k;

	add_addrs(addrs, m->to_hdr);
	add_addrs(addrs, m->cc_hdr);
	/* stable sort, as Python's list.sort */
	g_ptr_array_sort(addrs, by_cc_key);
	for (i = 0; i < addrs->len; i++) {
		struct addr *a = addrs->pdata[i];
		gboolean found = FALSE;
		struct trailer *t;
		g_autofree char *v = NULL;

		for (k = 0; k < body_tr->len && !found; k++)
			found = trailer_email_eq(body_tr->pdata[k], a->email);
		for (k = 0; k < newt->len && !found; k++)
			found = trailer_email_eq(newt->pdata[k], a->email);
		if (found)
			continue;
		v = *a->name ? g_strdup_printf("%s <%s>", a->name, a->email)
			     : g_strdup(a->email);
		t = trailer_new("Cc", v, NULL);
		g_ptr_array_add(owned, t);
		g_ptr_array_add(newt, t);
	}
	g_ptr_array_free(addrs, TRUE);
}

static void
apply_order(const char *order, GPtrArray *body_tr, GPtrArray **newt)
{
	g_auto(GStrv) globs = NULL;
	GPtrArray *ordered = g_ptr_array_new();
	guint i, k;

	/* trailers after the last Signed-off-by are in our custody */
	while (body_tr->len) {
		struct trailer *t = body_tr->pdata[body_tr->len - 1];

		if (!strcmp(t->lname, "signed-off-by"))
			break;
		g_ptr_array_insert(*newt, 0, t);
		g_ptr_array_remove_index(body_tr, body_tr->len - 1);
	}
	globs = g_strsplit(order, ",", -1);
	for (i = 0; globs[i] && (*newt)->len; i++) {
		g_autofree char *g = g_ascii_strdown(g_strstrip(globs[i]), -1);

		for (k = 0; k < (*newt)->len;) {
			struct trailer *t = (*newt)->pdata[k];

			if (!fnmatch(g, t->lname, 0)) {
				g_ptr_array_add(ordered, t);
				g_ptr_array_remove_index(*newt, k);
			} else {
				k++;
			}
		}
	}
	g_ptr_array_extend(ordered, *newt, NULL, NULL);
	g_ptr_array_free(*newt, TRUE);
	*newt = ordered;
}

static gboolean
ignored_sender(const struct am_opts *o, const struct trailer *t)
{
	guint i;

	for (i = 0; o->ignore_from && i < o->ignore_from->len; i++) {
		const char *ig = o->ignore_from->pdata[i];

		if (t->addr_email && !g_ascii_strcasecmp(t->addr_email, ig))
			return TRUE;
		if (t->src && !g_ascii_strcasecmp(t->src->from_email, ig))
			return TRUE;
	}
	return FALSE;
}

/* b4's fix_trailers(): returns the new body. */
static char *
fix_trailers(const struct series_entry *e, const char *body,
	     GPtrArray *followups, const struct am_opts *o,
	     struct am_note *note)
{
	struct body_parts bp;
	GPtrArray *owned = trailer_array_new();
	GPtrArray *newt = g_ptr_array_new();
	GPtrArray *fix, *ignored = g_ptr_array_new();
	struct trailer *sob = my_sob(o);
	gboolean hasmysob = FALSE, addmysob = o->add_my_sob && sob;
	char *out;
	guint i;

	body_split(body, &bp);
	/* bp.trailers owns the body's trailers; work on borrowed views */
	fix = g_ptr_array_new();
	g_ptr_array_extend(fix, bp.trailers, NULL, NULL);
	if (sob && remove_eq(fix, sob, FALSE))
		hasmysob = TRUE;
	g_ptr_array_extend(newt, followups, NULL, NULL);
	if (o->add_link && o->link_trailer) {
		g_autofree char *line =
			lore_mask_fill(o->link_trailer, e->p->msg->msgid);
		char *colon = strchr(line, ':');

		if (colon) {
			*colon = '\0';
			g_ptr_array_add(owned, trailer_new(
					       g_strstrip(line),
					       g_strstrip(colon + 1), NULL));
			g_ptr_array_add(newt, owned->pdata[owned->len - 1]);
		}
	}
	if (sob && remove_eq(newt, sob, FALSE))
		addmysob = TRUE;
	if (o->cc_trailers)
		add_cc_trailers(e->p->msg, fix, newt, owned);
	if (o->trailer_order && *o->trailer_order && strcmp(o->trailer_order, "*"))
		apply_order(o->trailer_order, fix, &newt);
	for (i = 0; i < newt->len; i++) {
		struct trailer *t = newt->pdata[i];

		if (trailer_in(fix, t) || trailer_in(ignored, t))
			continue;
		if (ignored_sender(o, t)) {
			g_ptr_array_add(ignored, t);
			if (note)
				g_ptr_array_add(note->ignored,
						trailer_string(t, FALSE));
			continue;
		}
		g_ptr_array_add(fix, t);
		if (note)
			g_ptr_array_add(note->added, trailer_string(t, FALSE));
	}
	if (addmysob || hasmysob) {
		g_ptr_array_add(fix, sob);
		if (!hasmysob && note)
			g_ptr_array_add(note->added, trailer_string(sob, FALSE));
	}
	out = body_rebuild(&bp, fix);
	g_ptr_array_free(fix, TRUE);
	g_ptr_array_free(newt, TRUE);
	g_ptr_array_free(ignored, TRUE);
	g_ptr_array_free(owned, TRUE);
	trailer_free(sob);
	body_parts_clear(&bp);
	return out;
}

char *
am_message(const struct series_entry *e, GPtrArray *followups,
	   const struct am_opts *o, gboolean for_cover, struct am_note *note)
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
		body = fix_trailers(e, mi.body, followups, o, note);
	else
		body = g_strdup(mi.body);
	from = am_format_addr(*mi.author_name ? mi.author_name : mi.author_email,
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
	g_string_append_printf(s, "Content-Transfer-Encoding: %s\n\n",
			       g_str_is_ascii(body) ? "7bit" : "8bit");
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
