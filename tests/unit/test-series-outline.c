/*
 * series_outline() + series_complete(), the cheap completeness check that
 * sources use, must agree with series_analyse() + series_get() on every
 * revision: complete, missing patches, partial re-rolls, a patch series
 * whose only follow-ups are trailer-only replies without "Re:", and the
 * bundled example thread.
 */
#include "mbox.h"
#include "series.h"
#include "tap.h"

#include <gmime/gmime.h>

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

static void
check(const char *what, const char *buf, size_t len)
{
	struct thread *t = thread_new();
	struct series_set *full, *outline;
	int rev;

	mbox_split(buf, len, add_one, t);
	full = series_analyse(t, FALSE);
	outline = series_outline(t);
	for (rev = 0; rev <= 4; rev++) {
		struct series *ser = series_get(full, rev);

		tap_ok((ser && ser->complete) == series_complete(outline, rev),
		       "%s, revision %d: %s", what, rev,
		       ser && ser->complete ? "complete" : "not complete");
	}
	series_set_free(full);
	series_set_free(outline);
	thread_free(t);
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
	g_mime_shutdown();
	return tap_done();
}
