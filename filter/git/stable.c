/*
 * stable.c - the series tried on each stable branch: first whether the
 * commits its Fixes: name are in the branch (a fix for what a branch
 * never had is no backport), then git am in a temporary worktree on the
 * branch (apply_run()'s APPLY_NONE trial on the small index), then with
 * -3 when the plain one fails. Nothing is left: the worktree goes with
 * the trial.
 */
#include "git/stable.h"
#include "git/apply.h"
#include "core/gitrun.h"
#include "core/util.h"

#include <string.h>

static void
add_names(GPtrArray *out, const char *list)
{
	g_auto(GStrv) parts = g_strsplit_set(list, ", \t\n", -1);
	guint i;

	for (i = 0; parts[i]; i++)
		if (*parts[i])
			g_ptr_array_add(out, g_strdup(parts[i]));
}

gboolean
stable_branches(char **given, struct config *cfg, GPtrArray **out)
{
	const char *v = config_get(cfg, "stable-branches", NULL);
	guint i;

	*out = g_ptr_array_new_with_free_func(g_free);
	for (i = 0; given && given[i]; i++)
		add_names(*out, given[i]);
	if (!given && v)
		add_names(*out, v);
	for (i = 0; i < (*out)->len; i++) {
		const char *b = (*out)->pdata[i];
		g_autofree char *s = NULL;

		if (*b != '-' && i < STABLE_BRANCHES_MAX)
			continue;
		s = lore_term_safe(b, -1);
		if (*b == '-')
			lore_err("--stable: '%s' is not a branch name", s);
		else
			lore_err("--stable: more than %d branches",
				 STABLE_BRANCHES_MAX);
		return FALSE;
	}
	return TRUE;
}

/* git's exit status for @argv in the current repository, -1: not run */
static int
status(const char *const *argv)
{
	GString *o = g_string_new(NULL), *e = g_string_new(NULL);
	int st = gitrun(NULL, argv, NULL, 0, o, e, NULL);

	g_string_free(o, TRUE);
	g_string_free(e, TRUE);
	return st;
}

/* The first fixed commit @branch lacks (borrowed), or NULL. */
static const char *
lacks(const GPtrArray *fixed, const char *commit)
{
	guint i;

	for (i = 0; i < fixed->len; i++) {
		const char *const argv[] = {"merge-base", "--is-ancestor",
					    fixed->pdata[i], commit, NULL};

		if (status(argv) == 1)
			return fixed->pdata[i];
	}
	return NULL;
}

/* One trial of git am (with -3 when @threeway) on @commit: 0 applied,
 * else why not in *@why (g_free). */
static int
trial(const GString *mbox, const char *commit, gboolean threeway, char **why)
{
	struct apply_job j = {0};
	GError *err = NULL;
	int rc;

	j.mode = APPLY_NONE;
	j.mbox = mbox;
	j.base = commit;
	j.threeway = threeway;
	rc = apply_run(&j, &err);
	if (rc && why)
		*why = g_strdup(err ? err->message : "git am failed");
	g_clear_error(&err);
	apply_job_clear(&j);
	return rc;
}

static void
one(struct gate *gate, const GString *mbox, const GPtrArray *fixed,
    const char *branch)
{
	g_autofree char *spec = g_strdup_printf("%s^{commit}", branch);
	const char *const argv[] = {"rev-parse",	"--verify", "-q",
				    "--end-of-options", spec,	    NULL};
	g_autofree char *commit = NULL, *why = NULL, *text = NULL;
	GString *out = g_string_new(NULL), *e = g_string_new(NULL);
	const char *missing;

	if (gitrun(NULL, argv, NULL, 0, out, e, NULL) == 0)
		commit = g_strdup(g_strstrip(out->str));
	g_string_free(out, TRUE);
	g_string_free(e, TRUE);
	if (!commit || !*commit) {
		gate_branch(gate, branch, GATE_FAIL, "no such branch here");
		return;
	}
	if ((missing = lacks(fixed, commit))) {
		text = g_strdup_printf("cannot: the fixed commit %.12s is not "
				       "in it",
				       missing);
		gate_branch(gate, branch, GATE_FAIL, text);
		return;
	}
	if (!trial(mbox, commit, FALSE, NULL)) {
		gate_branch(gate, branch, GATE_PASS, "applies clean");
		return;
	}
	if (!trial(mbox, commit, TRUE, &why)) {
		gate_branch(gate, branch, GATE_NOTE,
			    "needs -3 (git am -3 applies it)");
		return;
	}
	text =
	    g_strdup_printf("cannot: does not apply, even with -3 (%s)", why);
	gate_branch(gate, branch, GATE_FAIL, text);
}

void
stable_run(struct gate *gate, const GString *mbox, const GPtrArray *branches)
{
	GPtrArray *fixed;
	guint i;

	if (!gate || !branches->len)
		return;
	fixed = gate_fixed(gate);
	for (i = 0; i < branches->len && !gitrun_interrupted(); i++)
		one(gate, mbox, fixed, branches->pdata[i]);
	g_ptr_array_free(fixed, TRUE);
}
