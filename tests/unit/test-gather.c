/*
 * Choosing the next source (table-driven): which source is asked when,
 * what the archive adds, the first copy winning, the notes and the
 * summary, and a piped message that never stands in for a source; the
 * caller's need deciding when the thread is enough (series/choice.h's, as
 * lore-am asks, and a probe's); the search through the sources that can.
 * The sources here are in-memory implementations of our own struct source.
 */
#include "series/choice.h"
#include "source/gather.h"
#include "trailers/trailer.h"
#include "tap.h"
#include "core/util.h"

#include <gmime/gmime.h>
#include <string.h>

/*
 * A cover letter and patches 1..2 of one series; 3 a single [PATCH] (the
 * root of its own thread, <s@x>), 4 a review of it (<r@x>).
 */
static char *
mail(int n, const char *from)
{
	if (n == 3)
		return g_strdup_printf(
		    "From: Dev <dev@example.org>\nSubject: [PATCH] one\n"
		    "Message-ID: <s@x>\nDate: Mon, 1 Jan 2024 10:00:00 +0000\n"
		    "\nFix (%s).\n\nSigned-off-by: Dev <dev@example.org>\n"
		    "---\ndiff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n"
		    "-a\n+b\n",
		    from);
	if (n == 4)
		return g_strdup_printf(
		    "From: Rev <rev@example.org>\nSubject: Re: [PATCH] one\n"
		    "Message-ID: <r@x>\nIn-Reply-To: <s@x>\nReferences: <s@x>\n"
		    "Date: Mon, 1 Jan 2024 11:00:00 +0000\n\n> Fix.\n\n"
		    "Reviewed-by: Rev <rev@example.org> (%s)\n",
		    from);
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

/* The series stage's answer to gather's "enough?", as lore-am asks it. */
static struct choice *
series_choice(void)
{
	struct choice_opts o = {0};

	o.sends = trailer_reply_sends;
	return choice_new(&o);
}

struct mem {
	const char *has;      /* which messages: digits "012" */
	int fail;	      /* 0, or the status to return */
	gboolean unavailable; /* fail as SOURCE_ERROR_UNAVAILABLE */
	gboolean busy;	      /* fail as SOURCE_ERROR_BUSY */
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
			g_set_error(err, SOURCE_ERROR,
				    m->busy ? SOURCE_ERROR_BUSY
					    : SOURCE_ERROR_UNAVAILABLE,
				    "%s failed", src->name);
		else
			g_set_error(err, LORE_ERROR, m->fail, "%s failed",
				    src->name);
		return m->fail;
	}
	/* the archive's messages come in by thread_merge(), as lore.c's */
	struct thread *got = strcmp(src->name, "archive") ? t : thread_new();

	for (p = m->has; *p; p++) {
		g_autofree char *raw = mail(*p - '0', src->name);

		if (thread_add_raw(got, raw, strlen(raw), src->name) &&
		    got == t)
			src->added++;
	}
	if (got != t) {
		src->added += thread_merge(t, got);
		thread_free(got);
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

/* A need that says @answer, and records what it was asked about. */
struct probe {
	gboolean answer;
	guint calls;
	gboolean had_target; /* the target was in the thread at every call */
	guint most;	     /* the most messages the thread held */
};

static gboolean
probe_enough(struct thread *t, const char *msgid, gboolean alone, void *data)
{
	struct probe *p = data;

	(void)alone;
	p->calls++;
	if (!thread_get(t, msgid))
		p->had_target = FALSE;
	p->most = MAX(p->most, t->msgs->len);
	return p->answer;
}

/*
 * gather asks its caller whether the thread is enough, never the series
 * itself: a need met at once leaves the fallback and the archive unasked,
 * one never met asks them, and none at all (--thread) asks every source
 * without asking anything.
 */
static void
test_need(void)
{
	static const struct {
		const char *what;
		int answer; /* -1: no need (--thread) */
		guint nm_calls, arch_calls;
	} cases[] = {
	    {"need met at once", TRUE, 0, 0},
	    {"need never met", FALSE, 1, 1},
	    {"no need (--thread)", -1, 1, 1},
	};
	guint i;

	for (i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct mem mf = {"012", 0, FALSE, FALSE, 0};
		struct mem mn = {"012", 0, FALSE, FALSE, 0};
		struct mem ma = {"012", 0, FALSE, FALSE, 0};
		struct probe pr = {cases[i].answer == TRUE, 0, TRUE, 0};
		struct gather_need need = {probe_enough, &pr};
		struct gather *s = gather_new();
		struct thread *t = NULL;
		int rc;

		gather_add_local(s, mem_new("file", &mf), GATHER_REQUIRED);
		gather_add_local(s, mem_new("notmuch", &mn), GATHER_FALLBACK);
		gather_set_archive(s, mem_new("archive", &ma));
		rc = gather_run(s, "p1@x", NULL,
				cases[i].answer < 0 ? NULL : &need, &t, NULL);
		tap_is_int(rc, LORE_OK, "%s: status", cases[i].what);
		tap_is_int(mn.calls, cases[i].nm_calls, "%s: fallback asked",
			   cases[i].what);
		tap_is_int(ma.calls, cases[i].arch_calls, "%s: archive asked",
			   cases[i].what);
		if (cases[i].answer < 0)
			tap_is_int(pr.calls, 0, "%s: nothing is asked",
				   cases[i].what);
		else
			tap_ok(pr.calls && pr.had_target && pr.most == 3,
			       "%s: asked about the thread with its target",
			       cases[i].what);
		thread_free(t);
		gather_free(s);
	}
}

/* A source that searches: what it holds, whatever the query. */
static int
mem_search(struct source *src, const char *query, struct thread *t,
	   GError **err)
{
	int rc;

	g_assert(query && *query);
	rc = mem_fetch(src, NULL, t, err);
	if (!rc && !t->msgs->len) {
		g_set_error(err, LORE_ERROR, LORE_ENOTFOUND, "nothing");
		return LORE_ENOTFOUND;
	}
	return rc;
}

/*
 * gather_search() asks the sources that can search, and only those; the
 * first real failure is told, unless another source answered.
 */
static void
test_search(void)
{
	static const struct {
		const char *what;
		const char *local; /* a searching local source has these */
		int local_fail;
		const char *archive; /* the archive (searching) has these */
		int archive_fail;
		int rc;
		guint found;
		const char *error;
	} cases[] = {
	    {"no source searches", NULL, 0, NULL, 0, LORE_ENOTFOUND, 0,
	     "no source can search"},
	    {"the archive finds", NULL, 0, "012", 0, LORE_OK, 3, NULL},
	    {"the archive finds nothing", NULL, 0, "", 0, LORE_ENOTFOUND, 0,
	     "nothing"},
	    {"the archive fails", NULL, 0, "012", LORE_ETEMP, LORE_ETEMP, 0,
	     "archive failed"},
	    {"a local answer, the archive failing", "34", 0, "012", LORE_ETEMP,
	     LORE_OK, 2, NULL},
	    {"nothing local, the archive failing", "", 0, "012", LORE_ETEMP,
	     LORE_ETEMP, 0, "archive failed"},
	};
	guint i;

	for (i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct mem mf = {"012", 0, FALSE, FALSE, 0};
		struct mem ml = {cases[i].local, cases[i].local_fail, FALSE,
				 FALSE, 0};
		struct mem ma = {cases[i].archive, cases[i].archive_fail, FALSE,
				 FALSE, 0};
		struct gather *s = gather_new();
		struct thread *t = thread_new();
		GError *err = NULL;
		int rc;

		/* a -m mailbox cannot search: it is never asked */
		gather_add_local(s, mem_new("file", &mf), GATHER_REQUIRED);
		if (cases[i].local) {
			struct source *l = mem_new("local", &ml);

			l->search = mem_search;
			gather_add_local(s, l, GATHER_REQUIRED);
		}
		if (cases[i].archive) {
			struct source *a = mem_new("archive", &ma);

			a->search = mem_search;
			gather_set_archive(s, a);
		}
		rc = gather_search(s, "s:\"x\"", t, &err);
		tap_is_int(rc, cases[i].rc, "search, %s: status",
			   cases[i].what);
		tap_is_int(t->msgs->len, cases[i].found,
			   "search, %s: messages found", cases[i].what);
		tap_is_str(err ? err->message : NULL, cases[i].error,
			   "search, %s: error", cases[i].what);
		tap_is_int(mf.calls, 0, "search, %s: the mailbox not asked",
			   cases[i].what);
		g_clear_error(&err);
		thread_free(t);
		gather_free(s);
	}
}

static const struct {
	const char *what;
	const char *file, *nm, *arch; /* NULL: no such source */
	const char *piped;	      /* the message piped in: "3", or NULL */
	int nm_fail, arch_fail;
	gboolean nm_required, complete;
	int rc;
	guint nm_calls, arch_calls, notes;
	const char *summary;
} cases[] = {
    {"complete file: notmuch and archive not asked", "012", "012", "012", NULL,
     0, 0, FALSE, FALSE, LORE_OK, 0, 0, 0, "Sources: file 3 messages"},
    {"incomplete file: notmuch completes it", "01", "012", "012", NULL, 0, 0,
     FALSE, FALSE, LORE_OK, 1, 0, 0,
     "Sources: file 2 messages, notmuch 1 message"},
    {"still incomplete: the archive completes it", "01", "0", "012", NULL, 0, 0,
     FALSE, FALSE, LORE_OK, 1, 1, 0,
     "Sources: file 2 messages, archive 1 message"},
    {"-c: the archive is asked even when complete", NULL, "012", "012", NULL, 0,
     0, FALSE, TRUE, LORE_OK, 1, 1, 0, "Sources: notmuch 3 messages"},
    {"archive unreachable with a local thread: a note", NULL, "01", "012", NULL,
     0, LORE_ETEMP, FALSE, FALSE, LORE_OK, 1, 1, 1,
     "Sources: notmuch 2 messages"},
    {"archive unreachable, nothing local: its error", NULL, "", "012", NULL, 0,
     LORE_ETEMP, FALSE, FALSE, LORE_ETEMP, 1, 1, 0, "Sources: none"},
    {"notmuch not set up, auto: skipped", "01", "012", NULL, NULL, LORE_EUSAGE,
     0, FALSE, FALSE, LORE_OK, 1, 0, 1, "Sources: file 2 messages"},
    {"notmuch not set up, -N: an error", NULL, "012", NULL, NULL, LORE_EUSAGE,
     0, TRUE, FALSE, LORE_EUSAGE, 1, 0, 0, "Sources: none"},
    {"notmuch busy in auto, no archive: an error", "01", "012", NULL, NULL,
     LORE_ETEMP, 0, FALSE, FALSE, LORE_ETEMP, 1, 0, 0, "Sources: none"},
    {"notmuch busy in auto: the archive instead, with a note", "01", "012",
     "012", NULL, LORE_ETEMP, 0, FALSE, FALSE, LORE_OK, 1, 1, 1,
     "Sources: file 2 messages, archive 1 message"},
    {"notmuch busy with -N: an error, archive not asked", NULL, "012", "012",
     NULL, LORE_ETEMP, 0, TRUE, FALSE, LORE_ETEMP, 1, 0, 0, "Sources: none"},
    {"no archive: an incomplete series gets a note", NULL, "01", NULL, NULL, 0,
     0, TRUE, FALSE, LORE_OK, 1, 0, 1, "Sources: notmuch 2 messages"},
    {"a piped single patch: the archive is asked", NULL, NULL, "34", "3", 0, 0,
     FALSE, FALSE, LORE_OK, 0, 1, 0, "Sources: archive 2 messages"},
    {"a piped single patch, notmuch not set up: the archive", NULL, "", "34",
     "3", LORE_EUSAGE, 0, FALSE, FALSE, LORE_OK, 1, 1, 0,
     "Sources: archive 2 messages"},
    {"a piped single patch notmuch has: notmuch answers", NULL, "34", "34", "3",
     0, 0, FALSE, FALSE, LORE_OK, 1, 0, 0, "Sources: notmuch 2 messages"},
    {"a piped single patch notmuch lacks: the archive too", NULL, "0", "34",
     "3", 0, 0, FALSE, FALSE, LORE_OK, 1, 1, 0, "Sources: archive 2 messages"},
    {"a piped single patch, a file without it: the archive too", "0", NULL,
     "34", "3", 0, 0, FALSE, FALSE, LORE_OK, 0, 1, 0,
     "Sources: archive 2 messages"},
    {"a piped single patch, archive down, nothing local: the piped copy", NULL,
     NULL, "34", "3", 0, LORE_ETEMP, FALSE, FALSE, LORE_OK, 0, 1, 1,
     "Sources: stdin 1 message"},
    {"a piped single patch, not in the archive, nothing local: the same", NULL,
     NULL, "34", "3", 0, LORE_ENOTFOUND, FALSE, FALSE, LORE_OK, 0, 1, 1,
     "Sources: stdin 1 message"},
    {"a piped single patch over the archive's size cap: its error", NULL, NULL,
     "34", "3", 0, LORE_EUSAGE, FALSE, FALSE, LORE_EUSAGE, 0, 1, 0,
     "Sources: none"},
    {"a piped patch 1/2, archive down, nothing local: its error", NULL, NULL,
     "012", "1", 0, LORE_ETEMP, FALSE, FALSE, LORE_ETEMP, 0, 1, 0,
     "Sources: none"},
    {"a piped cover letter, archive down, nothing local: its error", NULL, NULL,
     "012", "0", 0, LORE_ETEMP, FALSE, FALSE, LORE_ETEMP, 0, 1, 0,
     "Sources: none"},
    {"a piped reply, archive down, nothing local: its error", NULL, NULL, "34",
     "4", 0, LORE_ETEMP, FALSE, FALSE, LORE_ETEMP, 0, 1, 0, "Sources: none"},
    {"a piped patch, the file has it all: the file alone", "01234", "34", "34",
     "3", 0, 0, FALSE, FALSE, LORE_OK, 0, 0, 0, "Sources: file 2 messages"},
    {"a piped patch the file lacks, no archive: piped copy kept", "0", NULL,
     NULL, "3", 0, 0, FALSE, FALSE, LORE_OK, 0, 0, 0,
     "Sources: stdin 1 message"},
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
		struct gather *s = gather_new();
		struct thread *t = NULL;
		struct choice *ch = series_choice();
		struct message *piped = NULL;
		static const char *const ids[] = {"p0@x", "p1@x", "p2@x", "s@x",
						  "r@x"};
		const char *target =
		    cases[i].piped ? ids[cases[i].piped[0] - '0'] : "p1@x";
		GError *err = NULL;
		g_autofree char *sum = NULL;
		int rc;

		if (cases[i].file)
			gather_add_local(s, mem_new("file", &mf),
					 GATHER_REQUIRED);
		if (cases[i].nm)
			gather_add_local(s, mem_new("notmuch", &mn),
					 cases[i].nm_required
					     ? GATHER_REQUIRED
					     : GATHER_FALLBACK);
		if (cases[i].arch)
			gather_set_archive(s, mem_new("archive", &ma));
		s->complete = cases[i].complete;
		if (cases[i].piped) {
			g_autofree char *raw =
			    mail(cases[i].piped[0] - '0', "stdin");

			piped = message_parse(raw, strlen(raw), NULL);
		}
		rc = gather_run(s, target, piped, &ch->need, &t, &err);
		tap_is_int(rc, cases[i].rc, "%s: status", cases[i].what);
		tap_ok((rc == LORE_OK) == (err == NULL),
		       "%s: error set on failure", cases[i].what);
		tap_ok((rc == LORE_OK) == (t && choice_outline(ch, t)),
		       "%s: thread and outline on success", cases[i].what);
		tap_is_int(mn.calls, cases[i].nm_calls, "%s: notmuch asked",
			   cases[i].what);
		tap_is_int(ma.calls, cases[i].arch_calls, "%s: archive asked",
			   cases[i].what);
		tap_is_int(s->notes->len, cases[i].notes, "%s: notes",
			   cases[i].what);
		sum = t ? gather_summary(t) : g_strdup("Sources: none");
		tap_is_str(sum, cases[i].summary, "%s: summary", cases[i].what);
		g_clear_error(&err);
		choice_free(ch);
		thread_free(t);
		gather_free(s);
	}

	/* the first (local) copy of a message is the one kept */
	{
		struct mem mn = {"012", 0, FALSE, FALSE, 0};
		struct mem ma = {"012", 0, FALSE, FALSE, 0};
		struct gather *s = gather_new();
		struct thread *t = NULL;
		struct choice *ch = series_choice();
		struct message *m;

		gather_add_local(s, mem_new("notmuch", &mn), GATHER_REQUIRED);
		gather_set_archive(s, mem_new("archive", &ma));
		s->complete = TRUE;
		gather_run(s, "p1@x", NULL, &ch->need, &t, NULL);
		m = thread_get(t, "p1@x");
		tap_ok(m && strstr(m->raw, "(notmuch)"),
		       "merge: the local copy wins");
		tap_is_int(t->dups, 3,
			   "merge: the archive's copies are dropped");
		choice_free(ch);
		thread_free(t);
		gather_free(s);
	}

	/* a source's copy replaces the piped one, wherever it stands */
	{
		struct mem ma = {"0124", 0, FALSE, FALSE, 0};
		struct gather *s = gather_new();
		struct thread *t = NULL;
		struct choice *ch = series_choice();
		g_autofree char *raw = mail(1, "stdin");
		struct message *m;

		gather_set_archive(s, mem_new("archive", &ma));
		gather_run(s, "p1@x", message_parse(raw, strlen(raw), NULL),
			   &ch->need, &t, NULL);
		m = thread_get(t, "p1@x");
		tap_ok(m && strstr(m->raw, "(archive)") && !m->provisional,
		       "piped: the archive's copy replaces it");
		tap_is_int(t->msgs->len, 3,
			   "piped: the thread is the archive's");
		tap_ok(series_complete(choice_outline(ch, t), 0),
		       "piped: the outline is of the final thread");
		choice_free(ch);
		thread_free(t);
		gather_free(s);
	}

	{
		static const struct {
			const char *in;
			gboolean ok;
			enum gather_mode mode;
		} modes[] = {
		    {"auto", TRUE, GATHER_AUTO},
		    {"notmuch", TRUE, GATHER_NOTMUCH},
		    {"NotMuch", TRUE, GATHER_NOTMUCH},
		    {"lore", TRUE, GATHER_LORE},
		    {"mbox", TRUE, GATHER_MBOX},
		    {"", FALSE, GATHER_AUTO},
		    {"maildir", FALSE, GATHER_AUTO},
		    {NULL, FALSE, GATHER_AUTO},
		};

		for (i = 0; i < G_N_ELEMENTS(modes); i++) {
			enum gather_mode m = GATHER_AUTO;
			gboolean ok = gather_parse_mode(modes[i].in, &m);

			tap_ok(ok == modes[i].ok && m == modes[i].mode,
			       "mode '%s'",
			       modes[i].in ? modes[i].in : "(null)");
		}
	}
	test_need();
	test_search();
	g_mime_shutdown();
	return tap_done();
}
