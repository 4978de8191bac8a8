/*
 * newer.c - newer revisions of a series sent as a new thread. The query
 * uses public-inbox's search prefixes (s: subject, f: from, d: date range,
 * Xapian's phrase and AND syntax); answers are read with the same subject
 * rules the series code uses.
 */
#include "series/newer.h"
#include "series/series.h"
#include "mail/subject.h"
#include "core/util.h"

#include <string.h>

/* Xapian phrases end at '"'; it is a word separator there anyway. */
static void
append_phrase(GString *q, const char *prefix, const char *text)
{
	const char *p;

	g_string_append_printf(q, "%s\"", prefix);
	for (p = text; *p; p++)
		g_string_append_c(q, *p == '"' ? ' ' : *p);
	g_string_append_c(q, '"');
}

char *
newer_query(const char *title, const char *email, const char *change_id,
	    gint64 date)
{
	GString *q = g_string_new("(");
	g_autoptr(GDateTime) dt =
	    date > 0 ? g_date_time_new_from_unix_utc(date) : NULL;

	if (change_id)
		g_string_append_c(q, '(');
	append_phrase(q, "s:", title);
	if (email && *email)
		append_phrase(q, " AND f:", email);
	if (change_id) {
		g_autofree char *cid =
		    g_strconcat("change-id: ", change_id, NULL);

		append_phrase(q, ") OR nq:", cid);
	}
	g_string_append_c(q, ')');
	if (dt) {
		g_autofree char *d = g_date_time_format(dt, "%Y%m%d");

		g_string_append_printf(q, " AND d:%s..", d);
	}
	return g_string_free(q, FALSE);
}

char *
newer_change_id(const char *body)
{
	size_t pos = 0, len = strlen(body), ll;
	const char *l;

	while (lore_next_line(body, len, &pos, &l, &ll)) {
		if (lore_has_prefix_ci(l, ll, "change-id:")) {
			char *v = lore_strip(g_strndup(l + 10, ll - 10));

			if (*v && !strpbrk(v, " \t\""))
				return v;
			g_free(v);
		}
	}
	return NULL;
}

/* The first message of the latest revision: its cover letter, else 1/N. */
static struct spatch *
series_head(struct series *ser)
{
	guint i;

	for (i = 0; i < ser->slots->len; i++) {
		struct spatch *p =
		    g_array_index(ser->slots, struct series_entry, i).p;

		if (p && p->revision == ser->revision)
			return p;
	}
	return NULL;
}

/* Same series: same title from the same sender, or the same change-id. */
static gboolean
same_series(struct message *m, const struct subject *s,
	    const struct spatch *head, const char *change_id)
{
	g_autofree char *cid = NULL;

	if (!g_ascii_strcasecmp(s->title, head->subj.title) &&
	    !g_ascii_strcasecmp(m->from_email, head->msg->from_email))
		return TRUE;
	if (!change_id)
		return FALSE;
	cid = newer_change_id(message_body(m));
	return cid && !strcmp(cid, change_id);
}

/* The best newer revision among @found: the highest, its cover first. */
static struct message *
pick(struct thread *found, const struct spatch *head, const char *change_id,
     int *revision)
{
	struct message *best = NULL;
	int best_rev = head->revision, best_ctr = 0;
	guint i;

	for (i = 0; i < found->msgs->len; i++) {
		struct message *m = found->msgs->pdata[i];
		struct subject s;

		subject_parse(m->subject ? m->subject : "", &s);
		if (!s.reply && s.revision > head->revision &&
		    (s.revision > best_rev ||
		     (s.revision == best_rev && s.counter < best_ctr)) &&
		    same_series(m, &s, head, change_id)) {
			best = m;
			best_rev = s.revision;
			best_ctr = s.counter;
		}
		subject_clear(&s);
	}
	*revision = best_rev;
	return best;
}

int
newer_check(struct series_set *s, struct gather *g, gboolean offline,
	    gboolean use, char **newer)
{
	struct series *ser;
	struct spatch *head;
	struct thread *found = NULL;
	struct message *m;
	g_autofree char *query = NULL, *id = NULL, *subj = NULL, *cid = NULL;
	GError *e = NULL;
	int rc, rev = 0;

	*newer = NULL;
	if (offline) {
		lore_info("--offline: not checking for newer revisions");
		return LORE_OK;
	}
	ser = series_get(s, 0);
	head = ser ? series_head(ser) : NULL;
	if (!head)
		return LORE_OK;
	cid = newer_change_id(message_body(head->msg));
	query = newer_query(head->subj.title, head->msg->from_email, cid,
			    head->msg->date);
	found = thread_new();
	rc = gather_search(g, query, found, &e);
	if (rc == LORE_OK && (m = pick(found, head, cid, &rev))) {
		id = g_strdup(m->msgid);
		subj = lore_term_safe(m->subject, -1);
	} else if (rc != LORE_OK && rc != LORE_ENOTFOUND) {
		lore_err("warning: cannot check for newer revisions: %s",
			 e->message);
	}
	g_clear_error(&e);
	thread_free(found);
	if (!id) {
		lore_info("No newer revision than v%d found", ser->revision);
	} else if (!use) {
		g_autofree char *sid = lore_term_safe(id, -1);

		lore_err("warning: a newer revision exists: v%d, \"%s\" <%s>; "
			 "use --use-newer to take it",
			 rev, subj, sid);
	} else {
		lore_info("Newer revision found: v%d, \"%s\"; using it", rev,
			  subj);
		*newer = g_steal_pointer(&id);
	}
	return LORE_OK;
}
