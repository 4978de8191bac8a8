/*
 * check.c - one run of the check command per patch, the am-ready message
 * on its stdin as b4 feeds it. The command comes from git config
 * (lore-am.am-perpatch-check-cmd, else b4.am-perpatch-check-cmd), split
 * as a shell would split it but never run by one; in a kernel tree the
 * default is checkpatch.pl, whose --terse lines say "ERROR:", "WARNING:"
 * or "CHECK:".
 */
#include "check.h"
#include "gitrun.h"
#include "mbox.h"
#include "message.h"
#include "util.h"

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
	guint n, counts[3];
	gboolean failed; /* the command could not be run */
};

static void
show(const char *subject, int grade, const GString *out)
{
	static const char *const word[] = {"clean   ", "warnings", "errors  "};
	g_autofree char *s = lore_term_safe(subject ? subject : "?", -1);
	g_auto(GStrv) lines = g_strsplit(out->str, "\n", -1);
	guint i, shown = 0;

	lore_info("  %s %s", word[grade], s);
	for (i = 0; lines[i] && shown < CHECK_SHOW_LINES; i++) {
		g_autofree char *l = NULL;

		if (!*g_strchomp(lines[i]))
			continue;
		l = lore_term_safe(lines[i], -1);
		lore_info("      %s", l);
		shown++;
	}
}

static void
one_patch(const char *msg, size_t len, void *data)
{
	struct check_state *st = data;
	struct message *m;
	GString *out, *err;
	GError *e = NULL;
	int rc, grade;

	if (st->failed)
		return;
	m = message_parse(msg, len, NULL);
	out = g_string_new(NULL);
	err = g_string_new(NULL);
	rc = gitrun_program(st->top, (const char *const *)st->argv, msg, len,
			    out, err, &e);
	if (rc < 0) {
		g_autofree char *c = lore_term_safe(st->argv[0], -1);

		lore_err("--check: cannot run '%s': %s; no checks", c,
			 e->message);
		g_error_free(e);
		st->failed = TRUE;
	} else {
		g_string_append(out, err->str);
		grade = check_grade(out->str, rc);
		st->counts[grade]++;
		st->n++;
		show(m ? m->subject : NULL, grade, out);
	}
	message_free(m);
	g_string_free(out, TRUE);
	g_string_free(err, TRUE);
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
	lore_info("---");
	{
		g_autofree char *c = lore_term_safe(cmd, -1);

		lore_info("Checks: %s", c);
	}
	mbox_split(mbox->str, mbox->len, one_patch, &st);
	if (!st.failed)
		lore_info("Checked %u patch%s: %u clean, %u with warnings, %u "
			  "with errors",
			  st.n, st.n == 1 ? "" : "es", st.counts[0],
			  st.counts[1], st.counts[2]);
	g_strfreev(st.argv);
}
