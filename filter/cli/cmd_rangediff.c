/*
 * cmd_rangediff.c - --range-diff (b4 diff): what changed between two
 * revisions of the series, as git range-diff shows it on stdout. The
 * revisions come from --range-diff=OLD..NEW or from -v, as b4 diff
 * takes them.
 */
#include "cli/cmd.h"
#include "core/config.h"
#include "git/rangediff.h"
#include "core/util.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

/*
 * Fold -v into --range-diff: b4 diff names the revisions with -v. -v N
 * ("use revision N") becomes, with --range-diff, N against the latest;
 * -v OLD NEW takes the next argument when it is a number (no Message-ID
 * is one), and -v OLD..NEW the pair as written; c->range_diff then holds
 * the pair and c->use_version is cleared. A pair without --range-diff, or
 * revisions given twice, is a usage error (reported).
 */
int
cmd_rangediff_fold(struct cli *c)
{
	char *spec = NULL;

	if (!c->range_diff) {
		g_autofree char *s = NULL;

		if (!c->version_pair)
			return LORE_OK;
		s = lore_term_safe(c->version_pair, -1);
		lore_err("-v %s: a pair of revisions goes with --range-diff",
			 s);
		return LORE_EUSAGE;
	}
	if (!c->version_pair && !c->use_version)
		return LORE_OK;
	if (*c->range_diff) {
		lore_err("give the revisions to compare once: "
			 "--range-diff=OLD..NEW or -v OLD..NEW");
		return LORE_EUSAGE;
	}
	if (c->version_pair) {
		spec = g_strdup(c->version_pair);
	} else if (c->args && c->args[0] && *c->args[0] &&
		   strspn(c->args[0], "0123456789") == strlen(c->args[0])) {
		spec = g_strdup_printf("%d..%s", c->use_version, c->args[0]);
		cli_shift(c);
	} else {
		spec = g_strdup_printf("%d..", c->use_version);
	}
	g_free(c->range_diff);
	c->range_diff = spec;
	/* the revisions are the pair's now, not one to write */
	c->use_version = 0;
	return LORE_OK;
}

/* --range-diff-opts checked; b4 diff -m's two mboxes, and nothing else */
static int
mboxes_check(struct cli *c)
{
	GError *err = NULL;
	char **extra = rangediff_opts(c->range_diff_opts, &err);

	if (err) {
		lore_err_take(err);
		return LORE_EUSAGE;
	}
	g_strfreev(extra);
	if (!c->compare_mboxes)
		return LORE_OK;
	if (g_strv_length(c->compare_mboxes) != 2 || *c->range_diff ||
	    (c->args && c->args[0]) || c->mboxes) {
		lore_err("diff -m takes two am-ready mboxes and nothing else "
			 "to compare: no Message-ID, no -v");
		return LORE_EUSAGE;
	}
	return LORE_OK;
}

static int
rangediff_check(struct cli *c)
{
	int a, b;

	if (!rangediff_parse(c->range_diff, &a, &b)) {
		g_autofree char *s = lore_term_safe(c->range_diff, -1);

		lore_err("--range-diff: '%s' is no pair of revisions: "
			 "give OLD..NEW (e.g. 1..2), OLD NEW or OLD",
			 s);
		return LORE_EUSAGE;
	}
	if (c->apply || c->outdir || c->thread) {
		lore_err("--range-diff writes the comparison on "
			 "stdout: it does not go with --apply, -o or "
			 "--thread");
		return LORE_EUSAGE;
	}
	if (c->diff_no_diff && (c->diff_output || c->diff_color)) {
		lore_err("diff -n prints the git range-diff command: not with "
			 "-o FILE or -c");
		return LORE_EUSAGE;
	}
	return mboxes_check(c);
}

/* @path (the caller's, replaced) as seen from the current folder */
static void
absolute(char **path)
{
	char *abs;

	if (!*path || !strcmp(*path, "-"))
		return;
	abs = g_canonicalize_filename(*path, NULL);
	g_free(*path);
	*path = abs;
}

/* b4 diff's -g DIR: the files named stay the ones named here; -n, -o
 * FILE and -c handed to the engine */
static int
diff_place(struct cli *c)
{
	struct rangediff_show show = {c->diff_no_diff, NULL, c->diff_color};
	guint i;

	for (i = 0; c->ty_gitdir && c->mboxes && c->mboxes[i]; i++)
		absolute(&c->mboxes[i]);
	for (i = 0; c->ty_gitdir && c->compare_mboxes && c->compare_mboxes[i];
	     i++)
		absolute(&c->compare_mboxes[i]);
	if (c->ty_gitdir)
		absolute(&c->diff_output);
	if (c->ty_gitdir && g_chdir(c->ty_gitdir) != 0) {
		g_autofree char *s = lore_term_safe(c->ty_gitdir, -1);

		lore_err("cannot enter '%s': %s", s, g_strerror(errno));
		return LORE_EUSAGE;
	}
	show.output = c->diff_output;
	rangediff_set_show(&show);
	return LORE_OK;
}

/* b4 diff -m MBX1 MBX2: the two files compared, no thread gathered */
static int
rangediff_cmd(struct cli *c)
{
	struct config *cfg;
	g_auto(GStrv) extra = NULL;
	int rc;

	if ((rc = diff_place(c)))
		return rc;
	if (!c->compare_mboxes)
		return run_cli(c);
	extra = rangediff_opts(c->range_diff_opts, NULL);
	cfg = config_load();
	rc = rangediff_mboxes(c->compare_mboxes[0], c->compare_mboxes[1],
			      (const char *const *)extra, cfg);
	config_free(cfg);
	return rc;
}

const struct cmd cmd_rangediff = {"range-diff", rangediff_check, rangediff_cmd};
