/*
 * check.c - one run of the check command per patch, the am-ready message
 * on its stdin as b4 feeds it. The command comes from git config
 * (lore-am.am-perpatch-check-cmd, else b4.am-perpatch-check-cmd), split
 * as a shell would split it but never run by one; in a kernel tree the
 * default is checkpatch.pl, whose --terse lines say "ERROR:", "WARNING:"
 * or "CHECK:".
 */
#include "git/check.h"
#include "gate/gate.h"
#include "core/gitrun.h"
#include "mail/mbox.h"
#include "mail/message.h"
#include "core/util.h"

#include <signal.h>
#include <string.h>

#define KERNEL_CHECK                                                           \
	"./scripts/checkpatch.pl -q --terse --no-summary --mailback"

int
check_grade(const char *output, int st)
{
	if (strstr(output, "ERROR:"))
		return 2;
	if (strstr(output, "WARNING:") || strstr(output, "CHECK:"))
		return 1;
	if (st != 0)
		return 2;
	return *output ? 1 : 0;
}

/* One patch's run of the command, made on a thread of the pool and
 * reported by the main thread in patch order. */
struct check_job {
	char *msg; /* a copy of the am-ready message */
	size_t len;
	char *subject;
	struct gitrun_bound b;
	int grade;     /* 0 clean, 1 warnings, 2 errors */
	char *shown;   /* the lines the summary shows, one a line */
	char *cannot;  /* the command could not be run: why */
	gboolean done; /* set under the state's lock */
	gboolean ran;  /* FALSE: skipped (interrupted, or a failure) */
	guint index;   /* the patch's place in the series, from 0 */
};

struct check_state {
	char **argv;
	const char *top;
	guint timeout;
	GPtrArray *jobs;
	GMutex lock;
	GCond cond;
	gboolean stop; /* a run could not start: start no more */
	guint next;    /* the next job a worker takes (under @lock) */
	guint n, counts[3], timed_out, cut;
	gboolean failed;   /* the command could not be run */
	struct gate *gate; /* told each verdict, or NULL */
};

/* " (check timed out after N s)", " (output cut: ...)" or "" (g_free) */
static char *
bound_note(const struct gitrun_bound *b)
{
	if (b->timed_out)
		return g_strdup_printf(" (check timed out after %u s)",
				       b->timeout);
	if (b->cut)
		return g_strdup_printf(" (output cut: %" G_GSIZE_FORMAT
				       " bytes kept, %" G_GUINT64_FORMAT
				       " more not read into memory)",
				       b->keep, b->cut);
	return g_strdup("");
}

/* The first lines of @out the summary shows, made safe for a terminal,
 * one a line (g_free): only these are kept while the others run. */
static char *
shown_lines(const GString *out)
{
	GString *s = g_string_new(NULL);
	const char *l;
	size_t pos = 0, n;
	guint shown = 0;

	/* line by line up to the few shown: the output may be a MiB */
	while (shown < CHECK_SHOW_LINES &&
	       lore_next_line(out->str, out->len, &pos, &l, &n)) {
		g_autofree char *t = NULL;

		while (n && g_ascii_isspace(l[n - 1]))
			n--;
		if (!n)
			continue;
		t = lore_term_safe(l, (gssize)n);
		g_string_append_printf(s, "%s\n", t);
		shown++;
	}
	return g_string_free(s, FALSE);
}

static void
show(const struct check_job *j)
{
	static const char *const word[] = {"clean   ", "warnings", "errors  "};
	g_autofree char *s = lore_term_safe(j->subject ? j->subject : "?", -1);
	g_autofree char *note = bound_note(&j->b);
	g_auto(GStrv) lines = g_strsplit(j->shown, "\n", -1);
	guint i;

	lore_info("  %s %s%s", word[j->grade], s, note);
	for (i = 0; lines[i] && *lines[i]; i++)
		lore_info("      %s", lines[i]);
}

/* "; 1 check timed out, 1 output cut" (a static buffer: said once) */
static const char *
bounds_said(const struct check_state *st)
{
	static char buf[96];

	g_snprintf(buf, sizeof(buf), "; %u check%s timed out, %u output%s cut",
		   st->timed_out, st->timed_out == 1 ? "" : "s", st->cut,
		   st->cut == 1 ? "" : "s");
	return buf;
}

/* On a thread of the pool: one run, bounded (gitrun_bounded()). */
static void
run_job(gpointer data, gpointer user)
{
	struct check_job *j = data;
	struct check_state *st = user;
	GString *out = g_string_new(NULL);
	GError *e = NULL;
	gboolean stop;
	int rc;

	g_mutex_lock(&st->lock);
	stop = st->stop;
	g_mutex_unlock(&st->lock);
	if (stop || gitrun_interrupted())
		goto out;
	j->ran = TRUE;
	rc = gitrun_bounded(st->top, (const char *const *)st->argv, j->msg,
			    j->len, out, &j->b, &e);
	if (rc < 0 && !j->b.timed_out && !gitrun_interrupted()) {
		j->cannot = g_strdup(e->message);
		g_mutex_lock(&st->lock);
		st->stop = TRUE;
		g_mutex_unlock(&st->lock);
	}
	/* an unfinished check passes nothing: errors */
	j->grade = rc < 0 ? 2 : check_grade(out->str, rc);
	j->shown = shown_lines(out);
	g_clear_error(&e);
out:
	g_string_free(out, TRUE);
	g_mutex_lock(&st->lock);
	j->done = TRUE;
	g_cond_broadcast(&st->cond);
	g_mutex_unlock(&st->lock);
}

static void
add_job(const char *msg, size_t len, void *data)
{
	struct check_state *st = data;
	struct check_job *j = g_new0(struct check_job, 1);
	struct message *m = message_parse(msg, len, NULL);

	j->msg = g_memdup2(msg, len);
	j->len = len;
	j->index = st->jobs->len;
	j->subject = m && m->subject ? g_strdup(m->subject) : NULL;
	j->b.timeout = st->timeout;
	j->b.keep = CHECK_OUTPUT_KEEP;
	message_free(m);
	g_ptr_array_add(st->jobs, j);
}

static void
job_free(gpointer p)
{
	struct check_job *j = p;

	g_free(j->msg);
	g_free(j->subject);
	g_free(j->shown);
	g_free(j->cannot);
	g_free(j);
}

static const char *const verdicts[] = {"clean", "warnings", "errors"};

/* Job @j's outcome, once done, in the summary and the counts. */
static void
report(struct check_state *st, const struct check_job *j)
{
	if (st->failed || !j->ran || gitrun_interrupted())
		return;
	if (j->cannot) {
		g_autofree char *c = lore_term_safe(st->argv[0], -1);

		lore_err("--check: cannot run '%s': %s; no checks", c,
			 j->cannot);
		st->failed = TRUE;
		return;
	}
	st->counts[j->grade]++;
	st->n++;
	st->timed_out += j->b.timed_out;
	st->cut += !j->b.timed_out && j->b.cut > 0;
	show(j);
	gate_check_result(st->gate, j->index, verdicts[j->grade], j->shown);
}

/* lore-am.check-jobs: runs at once, the online CPUs when unset or bad */
static guint
check_jobs(struct config *cfg)
{
	const char *v = config_get(cfg, "check-jobs", NULL);
	guint cpus = MAX(g_get_num_processors(), 1);
	guint64 n;

	if (!v)
		return MIN(cpus, CHECK_JOBS_MAX);
	if (g_ascii_string_to_unsigned(v, 10, 1, CHECK_JOBS_MAX, &n, NULL))
		return (guint)n;
	{
		g_autofree char *s = lore_term_safe(v, -1);

		lore_err("--check: git config lore-am.check-jobs: '%s' is not "
			 "a number of runs at once (1 to %u); using %u",
			 s, CHECK_JOBS_MAX, MIN(cpus, CHECK_JOBS_MAX));
	}
	return MIN(cpus, CHECK_JOBS_MAX);
}

/* lore-am.check-timeout: seconds, CHECK_TIMEOUT when unset or bad */
static guint
check_timeout(struct config *cfg)
{
	const char *v = config_get(cfg, "check-timeout", NULL);
	guint64 n;

	if (!v)
		return CHECK_TIMEOUT;
	if (g_ascii_string_to_unsigned(v, 10, 1, 24 * 3600, &n, NULL))
		return (guint)n;
	{
		g_autofree char *s = lore_term_safe(v, -1);

		lore_err("--check: git config lore-am.check-timeout: '%s' is "
			 "not a number of seconds (1 to 86400); using %u",
			 s, CHECK_TIMEOUT);
	}
	return CHECK_TIMEOUT;
}

/*
 * Every patch's run, up to @jobs at once on threads of its own, each
 * reported as soon as it and those before it are done: the summary is
 * in patch order whatever order the runs end in.
 */
/* A worker thread: takes the next job until none is left. */
static gpointer
worker(gpointer data)
{
	struct check_state *st = data;

	for (;;) {
		struct check_job *j = NULL;

		g_mutex_lock(&st->lock);
		if (st->next < st->jobs->len)
			j = st->jobs->pdata[st->next++];
		g_mutex_unlock(&st->lock);
		if (!j)
			return NULL;
		run_job(j, st);
	}
}

static void
run_all(struct check_state *st, const GString *mbox, guint jobs)
{
	GPtrArray *threads = g_ptr_array_new();
	guint i;

	st->jobs = g_ptr_array_new_with_free_func(job_free);
	g_mutex_init(&st->lock);
	g_cond_init(&st->cond);
	mbox_split(mbox->str, mbox->len, add_job, st);
	/* threads of our own, each joined: nothing of them outlives the run */
	for (i = 0;
	     jobs > 1 && st->jobs->len > 1 && i < MIN(jobs, st->jobs->len); i++)
		g_ptr_array_add(threads, g_thread_new("check", worker, st));
	for (i = 0; i < st->jobs->len; i++) {
		struct check_job *j = st->jobs->pdata[i];

		if (!threads->len) {
			run_job(j, st);
			report(st, j);
			continue;
		}
		g_mutex_lock(&st->lock);
		while (!j->done)
			g_cond_wait(&st->cond, &st->lock);
		g_mutex_unlock(&st->lock);
		report(st, j);
	}
	for (i = 0; i < threads->len; i++)
		g_thread_join(threads->pdata[i]);
	g_ptr_array_unref(threads);
	g_ptr_array_unref(st->jobs);
	g_mutex_clear(&st->lock);
	g_cond_clear(&st->cond);
}

void
check_run(const GString *mbox, const char *top, struct config *cfg,
	  struct gate *gate)
{
	const char *cmd =
	    config_get(cfg, "am-perpatch-check-cmd", "am-perpatch-check-cmd");
	struct check_state st = {0};
	g_autofree char *script = NULL;
	GError *e = NULL;

	if (!cmd && top) {
		script =
		    g_build_filename(top, "scripts", "checkpatch.pl", NULL);
		if (g_file_test(script, G_FILE_TEST_IS_EXECUTABLE))
			cmd = KERNEL_CHECK;
	}
	if (!cmd || !*cmd) {
		lore_err("--check: no check command (set "
			 "lore-am.am-perpatch-check-cmd); no checks");
		return;
	}
	if (!g_shell_parse_argv(cmd, NULL, &st.argv, &e)) {
		g_autofree char *c = lore_term_safe(cmd, -1);

		lore_err("--check: cannot split the check command '%s': %s; no "
			 "checks",
			 c, e->message);
		g_error_free(e);
		return;
	}
	st.top = top;
	st.gate = gate;
	st.timeout = check_timeout(cfg);
	lore_info("---");
	{
		g_autofree char *c = lore_term_safe(cmd, -1);

		lore_info("Checks: %s", c);
	}
	/* a Ctrl-C stops the check command's group too (it has its own):
	 * then lore-am ends by that signal, as without --check */
	gitrun_guard();
	run_all(&st, mbox, check_jobs(cfg));
	gitrun_unguard();
	if (gitrun_interrupted())
		raise(gitrun_signal());
	if (!st.failed)
		lore_info("Checked %u patch%s: %u clean, %u with warnings, %u "
			  "with errors%s",
			  st.n, st.n == 1 ? "" : "es", st.counts[0],
			  st.counts[1], st.counts[2],
			  st.timed_out || st.cut ? bounds_said(&st) : "");
	g_strfreev(st.argv);
}
