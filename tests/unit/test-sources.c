/*
 * Combining sources (table-driven): which source is asked when, what the
 * archive adds, the first copy winning, the notes and the summary. The
 * sources here are in-memory implementations of our own struct source.
 */
#include "nm.h"
#include "sources.h"
#include "tap.h"
#include "util.h"

#include <gmime/gmime.h>

/* A cover letter and patches 1..2 of one series. */
static char *
mail(int n, const char *from)
{
	if (n == 0)
		return g_strdup_printf(
		    "From: Dev <dev@example.org>\nSubject: [PATCH 0/2] s\n"
		    "Message-ID: <p0@x>\nDate: Mon, 1 Jan 2024 10:00:00 +0000\n"
		    "\nCover (%s).\n\n f | 2 +-\n 1 file changed, 1 "
		    "insertion(+), 1 deletion(-)\n",
		    from);
	return g_strdup_printf(
	    "From: Dev <dev@example.org>\nSubject: [PATCH %d/2] p%d\n"
	    "Message-ID: <p%d@x>\nIn-Reply-To: <p0@x>\nReferences: <p0@x>\n"
	    "Date: Mon, 1 Jan 2024 10:00:0%d +0000\n\nChange %d (%s).\n\n"
	    "Signed-off-by: Dev <dev@example.org>\n---\n"
	    "diff --git a/f%d b/f%d\n--- a/f%d\n+++ b/f%d\n@@ -1 +1 "
	    "@@\n-a\n+b\n",
	    n, n, n, n, n, from, n, n, n, n);
}

struct mem {
	const char *has;      /* which messages: digits "012" */
	int fail;	      /* 0, or the status to return */
	gboolean unavailable; /* fail as NM_ERROR_UNAVAILABLE */
	gboolean busy;	      /* fail as NM_ERROR_BUSY */
	guint calls;
};

static int
mem_fetch(struct source *src, const char *msgid, struct thread *t, GError **err)
{
	struct mem *m = src->priv;
	const char *p;

	m->calls++;
	if (m->fail) {
		if (m->unavailable || m->busy)
			g_set_error(err, NM_ERROR,
				    m->busy ? NM_ERROR_BUSY
					    : NM_ERROR_UNAVAILABLE,
				    "%s failed", src->name);
		else
			g_set_error(err, LORE_ERROR, m->fail, "%s failed",
				    src->name);
		return m->fail;
	}
	for (p = m->has; *p; p++) {
		g_autofree char *raw = mail(*p - '0', src->name);

		if (thread_add_raw(t, raw, strlen(raw), src->name))
			src->added++;
	}
	return LORE_OK;
}

static struct source *
mem_new(const char *name, struct mem *m)
{
	struct source *s = g_new0(struct source, 1);

	s->name = name;
	s->label = g_strdup(name);
	s->fetch = mem_fetch;
	s->priv = m;
	return s;
}

static const struct {
	const char *what;
	const char *file, *nm, *arch; /* NULL: no such source */
	int nm_fail, arch_fail;
	gboolean nm_required, complete;
	int rc;
	guint nm_calls, arch_calls, notes;
	const char *summary;
} cases[] = {
    {"complete file: notmuch and archive not asked", "012", "012", "012", 0, 0,
     FALSE, FALSE, LORE_OK, 0, 0, 0, "Sources: file 3 messages"},
    {"incomplete file: notmuch completes it", "01", "012", "012", 0, 0, FALSE,
     FALSE, LORE_OK, 1, 0, 0, "Sources: file 2 messages, notmuch 1 message"},
    {"still incomplete: the archive completes it", "01", "0", "012", 0, 0,
     FALSE, FALSE, LORE_OK, 1, 1, 0,
     "Sources: file 2 messages, archive 1 message"},
    {"-c: the archive is asked even when complete", NULL, "012", "012", 0, 0,
     FALSE, TRUE, LORE_OK, 1, 1, 0, "Sources: notmuch 3 messages"},
    {"archive unreachable with a local thread: a note", NULL, "01", "012", 0,
     LORE_ETEMP, FALSE, FALSE, LORE_OK, 1, 1, 1, "Sources: notmuch 2 messages"},
    {"archive unreachable, nothing local: its error", NULL, "", "012", 0,
     LORE_ETEMP, FALSE, FALSE, LORE_ETEMP, 1, 1, 0, "Sources: none"},
    {"notmuch not set up, auto: skipped", "01", "012", NULL, LORE_EUSAGE, 0,
     FALSE, FALSE, LORE_OK, 1, 0, 1, "Sources: file 2 messages"},
    {"notmuch not set up, -N: an error", NULL, "012", NULL, LORE_EUSAGE, 0,
     TRUE, FALSE, LORE_EUSAGE, 1, 0, 0, "Sources: none"},
    {"notmuch busy in auto, no archive: an error", "01", "012", NULL,
     LORE_ETEMP, 0, FALSE, FALSE, LORE_ETEMP, 1, 0, 0,
     "Sources: file 2 messages"},
    {"notmuch busy in auto: the archive instead, with a note", "01", "012",
     "012", LORE_ETEMP, 0, FALSE, FALSE, LORE_OK, 1, 1, 1,
     "Sources: file 2 messages, archive 1 message"},
    {"notmuch busy with -N: an error, archive not asked", NULL, "012", "012",
     LORE_ETEMP, 0, TRUE, FALSE, LORE_ETEMP, 1, 0, 0, "Sources: none"},
    {"no archive: an incomplete series gets a note", NULL, "01", NULL, 0, 0,
     TRUE, FALSE, LORE_OK, 1, 0, 1, "Sources: notmuch 2 messages"},
};

int
main(void)
{
	guint i;

	g_mime_init();
	for (i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct mem mf = {cases[i].file, 0, FALSE, FALSE, 0};
		struct mem mn = {cases[i].nm, cases[i].nm_fail,
				 cases[i].nm_fail == LORE_EUSAGE,
				 cases[i].nm_fail == LORE_ETEMP, 0};
		struct mem ma = {cases[i].arch, cases[i].arch_fail, FALSE,
				 FALSE, 0};
		struct sources *s = sources_new();
		struct thread *t = thread_new();
		GError *err = NULL;
		g_autofree char *sum = NULL;
		int rc;

		if (cases[i].file)
			sources_add_local(s, mem_new("file", &mf),
					  SOURCES_REQUIRED);
		if (cases[i].nm)
			sources_add_local(s, mem_new("notmuch", &mn),
					  cases[i].nm_required
					      ? SOURCES_REQUIRED
					      : SOURCES_FALLBACK);
		if (cases[i].arch)
			sources_set_archive(s, mem_new("archive", &ma));
		s->complete = cases[i].complete;
		rc = sources_gather(s, "p1@x", t, &err);
		tap_is_int(rc, cases[i].rc, "%s: status", cases[i].what);
		tap_ok((rc == LORE_OK) == (err == NULL),
		       "%s: error set on failure", cases[i].what);
		tap_is_int(mn.calls, cases[i].nm_calls, "%s: notmuch asked",
			   cases[i].what);
		tap_is_int(ma.calls, cases[i].arch_calls, "%s: archive asked",
			   cases[i].what);
		tap_is_int(s->notes->len, cases[i].notes, "%s: notes",
			   cases[i].what);
		sum = sources_summary(t);
		tap_is_str(sum, cases[i].summary, "%s: summary", cases[i].what);
		g_clear_error(&err);
		thread_free(t);
		sources_free(s);
	}

	/* the first (local) copy of a message is the one kept */
	{
		struct mem mn = {"012", 0, FALSE, FALSE, 0};
		struct mem ma = {"012", 0, FALSE, FALSE, 0};
		struct sources *s = sources_new();
		struct thread *t = thread_new();
		struct message *m;

		sources_add_local(s, mem_new("notmuch", &mn), SOURCES_REQUIRED);
		sources_set_archive(s, mem_new("archive", &ma));
		s->complete = TRUE;
		sources_gather(s, "p1@x", t, NULL);
		m = thread_get(t, "p1@x");
		tap_ok(m && strstr(m->raw, "(notmuch)"),
		       "merge: the local copy wins");
		tap_is_int(t->dups, 3,
			   "merge: the archive's copies are dropped");
		thread_free(t);
		sources_free(s);
	}

	{
		static const struct {
			const char *in;
			gboolean ok;
			enum sources_mode mode;
		} modes[] = {
		    {"auto", TRUE, SOURCES_AUTO},
		    {"notmuch", TRUE, SOURCES_NOTMUCH},
		    {"NotMuch", TRUE, SOURCES_NOTMUCH},
		    {"lore", TRUE, SOURCES_LORE},
		    {"mbox", TRUE, SOURCES_MBOX},
		    {"", FALSE, SOURCES_AUTO},
		    {"maildir", FALSE, SOURCES_AUTO},
		    {NULL, FALSE, SOURCES_AUTO},
		};

		for (i = 0; i < G_N_ELEMENTS(modes); i++) {
			enum sources_mode m = SOURCES_AUTO;
			gboolean ok = sources_parse_mode(modes[i].in, &m);

			tap_ok(ok == modes[i].ok && m == modes[i].mode,
			       "mode '%s'",
			       modes[i].in ? modes[i].in : "(null)");
		}
	}
	g_mime_shutdown();
	return tap_done();
}
