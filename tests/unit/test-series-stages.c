/*
 * The series stage and the trailers stage after it: the series that
 * series/choice.c judges complete while gathering is the one the am job writes
 * (the trailers stage reads the replies' trailers but never changes which
 * revisions exist or which slots they fill), on complete series, missing
 * patches, partial re-rolls, a series whose only follow-ups are trailer-only
 * replies without "Re:", and the bundled example thread. And revisions
 * are never overwritten: an unversioned resend in a thread that has a
 * [PATCH v3] is a revision of its own.
 */
#include "trailers/followup.h"
#include "trailers/trailer.h"
#include "mail/mbox.h"
#include "series/series.h"
#include "tap.h"

#include <gmime/gmime.h>
#include <string.h>

/* "[PATCH vR i/N]" (v1 without the tag), replying to @parent (or none). */
static void
add(GString *mbox, int rev, int i, int n, const char *parent)
{
	g_string_append_printf(mbox,
			       "From dev@example.org Mon Jan  1 10:00:00 2024\n"
			       "From: Dev <dev@example.org>\n");
	if (rev > 1)
		g_string_append_printf(mbox, "Subject: [PATCH v%d %d/%d] p%d\n",
				       rev, i, n, i);
	else
		g_string_append_printf(mbox, "Subject: [PATCH %d/%d] p%d\n", i,
				       n, i);
	g_string_append_printf(mbox, "Message-ID: <v%d.%d@x>\n", rev, i);
	if (parent)
		g_string_append_printf(mbox,
				       "In-Reply-To: <%s>\nReferences: <%s>\n",
				       parent, parent);
	g_string_append_printf(
	    mbox, "Date: Mon, 1 Jan 2024 10:%02d:%02d +0000\n\n", rev, i);
	if (i == 0)
		g_string_append(mbox, "Cover.\n\n f | 2 +-\n 1 file changed, 1 "
				      "insertion(+), 1 deletion(-)\n\n");
	else
		g_string_append_printf(mbox,
				       "Change %d.\n\nSigned-off-by: Dev "
				       "<dev@example.org>\n---\ndiff --git "
				       "a/f%d b/f%d\n--- a/f%d\n+++ b/f%d\n"
				       "@@ -1 +1 @@\n-a\n+b%d\n\n",
				       i, i, i, i, i, rev);
}

static void
reply(GString *mbox, const char *id, const char *parent, gboolean re)
{
	g_string_append_printf(
	    mbox,
	    "From r@example.org Mon Jan  1 11:00:00 2024\n"
	    "From: Rev <r@example.org>\n"
	    "Subject: %s[PATCH 1/3] p1\nMessage-ID: <%s>\n"
	    "In-Reply-To: <%s>\nReferences: <%s>\n"
	    "Date: Mon, 1 Jan 2024 11:00:00 +0000\n\n"
	    "> quote\n\nReviewed-by: Rev <r@example.org>\n\n",
	    re ? "Re: " : "", id, parent, parent);
}

static void
add_one(const char *msg, size_t len, void *data)
{
	thread_add_raw(data, msg, len, "test");
}

/* The patches of every slot of @ser, as one string of ids. */
static char *
slots_of(struct series *ser)
{
	GString *s = g_string_new(NULL);
	guint i;

	for (i = 0; ser && i < ser->slots->len; i++) {
		struct spatch *p =
		    g_array_index(ser->slots, struct series_entry, i).p;

		g_string_append_printf(s, "%s ", p ? p->msg->msgid : "-");
	}
	return g_string_free(s, FALSE);
}

static void
check(const char *what, const char *buf, size_t len)
{
	struct thread *t = thread_new();
	struct series_set *judged, *written;
	struct followups *f;
	int rev;

	mbox_split(buf, len, add_one, t);
	judged = series_analyse(t, trailer_reply_sends);
	written = series_analyse(t, trailer_reply_sends);
	f = followup_collect(written, FALSE);
	for (rev = 0; rev <= 4; rev++) {
		struct series *ser = series_get(written, rev);
		g_autofree char *a = NULL, *b = NULL;

		tap_ok((ser && ser->complete) == series_complete(judged, rev),
		       "%s, revision %d: %s", what, rev,
		       ser && ser->complete ? "complete" : "not complete");
		a = slots_of(series_get(judged, rev));
		b = slots_of(ser);
		tap_is_str(b, a, "%s, revision %d: same slots", what, rev);
	}
	followup_free(f);
	series_set_free(judged);
	series_set_free(written);
	thread_free(t);
}

/* A single patch: [PATCH] (v1 unversioned) or [PATCH vN], body @tag. */
static void
single(GString *mbox, const char *id, int rev, int minute, const char *tag)
{
	g_autofree char *v = rev ? g_strdup_printf(" v%d", rev) : g_strdup("");

	g_string_append_printf(mbox,
			       "From dev@example.org Mon Jan  1 10:00:00 2024\n"
			       "From: Dev <dev@example.org>\n"
			       "Subject: [PATCH%s] fix\n"
			       "Message-ID: <%s>\n"
			       "Date: Mon, 1 Jan 2024 10:%02d:00 +0000\n\n"
			       "Fix (%s).\n\nSigned-off-by: Dev "
			       "<dev@example.org>\n---\ndiff --git a/f b/f\n"
			       "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+%s\n\n",
			       v, id, minute, tag, tag);
}

/* Which message stands in revision @rev's only slot, or "-". */
static const char *
single_of(struct series_set *s, int rev)
{
	struct series *ser = series_get(s, rev);
	struct spatch *p = NULL;

	if (ser && ser->slots->len > 1)
		p = g_array_index(ser->slots, struct series_entry, 1).p;
	return p ? p->msg->msgid : "-";
}

/*
 * A trailer-only follow-up without "Re:" is a reply because the trailers
 * stage says it sends trailers (series_sends_fn): with its test, the
 * Reviewed-by reaches patch 1; with none, the mail is no reply and sends
 * nothing.
 */
static void
check_sends(series_sends_fn sends, const char *what)
{
	GString *m = g_string_new(NULL);
	struct thread *t = thread_new();
	struct series_set *s;
	struct followups *f;
	struct series *ser;
	GPtrArray *fu;
	struct spatch *r;
	g_autofree char *slots = NULL;
	int i;

	for (i = 0; i <= 3; i++)
		add(m, 1, i, 3, i ? "v1.0@x" : NULL);
	reply(m, "r1@x", "v1.1@x", FALSE);
	mbox_split(m->str, m->len, add_one, t);
	s = series_analyse(t, sends);
	f = followup_collect(s, FALSE);
	ser = series_get(s, 0);
	r = series_spatch_of(s, thread_get(t, "r1@x"));
	fu = followup_for(f, ser,
			  &g_array_index(ser->slots, struct series_entry, 1));
	tap_ok(r && r->reply == (sends != NULL), "%s: a reply %s", what,
	       sends ? "(it sends trailers)" : "no more");
	tap_is_int(fu->len, sends ? 1 : 0, "%s: trailers for patch 1", what);
	tap_ok(!fu->len || !strcmp(((struct trailer *)fu->pdata[0])->lname,
				   "reviewed-by"),
	       "%s: the reply's Reviewed-by", what);
	slots = slots_of(ser);
	tap_is_str(slots, "v1.0@x v1.1@x v1.2@x v1.3@x ", "%s: the same slots",
		   what);
	g_ptr_array_free(fu, TRUE);
	followup_free(f);
	series_set_free(s);
	thread_free(t);
	g_string_free(m, TRUE);
}

/* v1, a real v3, and an unversioned resend of v1, in either order. */
static void
check_resend(gboolean v3_first)
{
	GString *m = g_string_new(NULL);
	struct thread *t = thread_new();
	struct series_set *s;
	GArray *revs;

	single(m, "a@x", 0, 1, "first");
	if (v3_first)
		single(m, "b@x", 3, 2, "v3");
	single(m, "c@x", 0, 3, "resent");
	if (!v3_first)
		single(m, "b@x", 3, 2, "v3");
	mbox_split(m->str, m->len, add_one, t);
	s = series_analyse(t, trailer_reply_sends);
	revs = series_revisions(s);
	tap_is_int(revs->len, 3, "resend: three revisions");
	tap_is_str(single_of(s, 1), "a@x", "resend: v1 is the first send");
	tap_is_str(single_of(s, 3), "b@x", "resend: v3 is the real v3");
	tap_is_str(single_of(s, 4), "c@x",
		   "resend: the unversioned resend is v4, after the highest");
	g_array_unref(revs);
	series_set_free(s);
	thread_free(t);
	g_string_free(m, TRUE);
}

int
main(void)
{
	GString *m = g_string_new(NULL);
	gchar *ex = NULL;
	gsize exlen;
	int i;

	g_mime_init();
	for (i = 0; i <= 3; i++)
		add(m, 1, i, 3, i ? "v1.0@x" : NULL);
	reply(m, "r1@x", "v1.1@x", TRUE);
	reply(m, "r2@x", "v1.2@x", FALSE);
	check("complete v1 with replies", m->str, m->len);

	g_string_truncate(m, 0);
	for (i = 0; i <= 3; i++)
		if (i != 2)
			add(m, 1, i, 3, i ? "v1.0@x" : NULL);
	check("v1 without 2/3", m->str, m->len);

	g_string_truncate(m, 0);
	for (i = 0; i <= 3; i++)
		add(m, 1, i, 3, i ? "v1.0@x" : NULL);
	add(m, 2, 2, 3, "v1.2@x");
	reply(m, "r3@x", "v2.2@x", FALSE);
	check("v2 re-sends only 2/3", m->str, m->len);

	g_string_truncate(m, 0);
	for (i = 1; i <= 3; i++)
		add(m, 2, i, 3, i > 1 ? "v2.1@x" : NULL);
	reply(m, "r4@x", "v2.1@x", FALSE);
	check("v2 without cover letter", m->str, m->len);

	if (g_file_get_contents("../../examples/thread.mbox", &ex, &exlen,
				NULL))
		check("examples/thread.mbox", ex, exlen);
	else
		tap_ok(0, "examples/thread.mbox readable");
	g_free(ex);
	g_string_free(m, TRUE);
	check_resend(TRUE);
	check_resend(FALSE);
	check_sends(trailer_reply_sends, "with the trailers stage's test");
	check_sends(NULL, "without it");
	g_mime_shutdown();
	return tap_done();
}
