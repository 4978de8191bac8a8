/*
 * check.c - one run of the check command per patch, the am-ready message
 * on its stdin as b4 feeds it. The command comes from git config
 * (lore-am.am-perpatch-check-cmd, else b4.am-perpatch-check-cmd), split
 * as a shell would split it but never run by one; in a kernel tree the
 * default is checkpatch.pl, whose --terse lines say "ERROR:", "WARNING:"
 * or "CHECK:".
 */
#include "git/check.h"
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

struct check_state {
	char **argv;
	const char *top;
	guint timeout;
	guint n, counts[3], timed_out, cut;
	gboolean failed; /* the command could not be run */
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

static void
show(const char *subject, int grade, const GString *out,
     const struct gitrun_bound *b)
{
	static const char *const word[] = {"clean   ", "warnings", "errors  "};
	g_autofree char *s = lore_term_safe(subject ? subject : "?", -1);
	g_autofree char *note = bound_note(b);
	const char *l;
	size_t pos = 0, n;
	guint shown = 0;

	lore_info("  %s %s%s", word[grade], s, note);
	/* line by line up to the few shown: the output may be a MiB */
	while (shown < CHECK_SHOW_LINES &&
	       lore_next_line(out->str, out->len, &pos, &l, &n)) {
		g_autofree char *t = NULL;

		while (n && g_ascii_isspace(l[n - 1]))
			n--;
		if (!n)
			continue;
		t = lore_term_safe(l, (gssize)n);
		lore_info("      %s", t);
		shown++;
	}
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

static void
one_patch(const char *msg, size_t len, void *data)
{
	struct check_state *st = data;
	struct gitrun_bound b = {st->timeout, CHECK_OUTPUT_KEEP, FALSE, 0};
	struct message *m;
	GString *out;
	GError *e = NULL;
	int rc, grade;

	if (st->failed || gitrun_interrupted())
		return;
	m = message_parse(msg, len, NULL);
	out = g_string_new(NULL);
	rc = gitrun_bounded(st->top, (const char *const *)st->argv, msg, len,
			    out, &b, &e);
	if (gitrun_interrupted()) {
		g_clear_error(&e);
	} else if (rc < 0 && b.timed_out) {
		/* an unfinished check passes nothing: errors */
		g_clear_error(&e);
		st->counts[2]++;
		st->n++;
		st->timed_out++;
		show(m ? m->subject : NULL, 2, out, &b);
	} else if (rc < 0) {
		g_autofree char *c = lore_term_safe(st->argv[0], -1);

		lore_err("--check: cannot run '%s': %s; no checks", c,
			 e->message);
		g_error_free(e);
		st->failed = TRUE;
	} else {
		grade = check_grade(out->str, rc);
		st->counts[grade]++;
		st->n++;
		st->cut += b.cut > 0;
		show(m ? m->subject : NULL, grade, out, &b);
	}
	message_free(m);
	g_string_free(out, TRUE);
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

void
check_run(const GString *mbox, const char *top, struct config *cfg)
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
	st.timeout = check_timeout(cfg);
	lore_info("---");
	{
		g_autofree char *c = lore_term_safe(cmd, -1);

		lore_info("Checks: %s", c);
	}
	/* a Ctrl-C stops the check command's group too (it has its own):
	 * then lore-am ends by that signal, as without --check */
	gitrun_guard();
	mbox_split(mbox->str, mbox->len, one_patch, &st);
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
