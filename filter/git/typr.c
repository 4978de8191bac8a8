/*
 * typr.c - b4 ty's auto_locate_pr(), git_get_merge_id() and
 * generate_pr_thanks()'s summary in C (b4 0.12), with the two ways b4
 * does not see a pull taken: by fast-forward, and commit by commit.
 * Every git run is named by the pull's tip, which the file's name gives
 * and which is checked to be a commit id first: nothing from the file
 * reaches git as an option.
 */
#include "git/typr.h"
#include "core/gitrun.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>

/* git @argv here, its first line in *@line when asked: git's status */
static int
git(const char *const *argv, char **line, GError **err)
{
	GString *out = g_string_new(NULL), *e = g_string_new(NULL);
	int rc = gitrun(NULL, argv, NULL, 0, out, e, err);

	if (line)
		*line = rc == 0 ? gitrun_first_line(out->str) : NULL;
	g_string_free(out, TRUE);
	g_string_free(e, TRUE);
	return rc;
}

/* the oldest commit of `git rev-list --ancestry-path ^TIP BRANCH` */
static char *
merge_id(const char *tip, const char *branch, GError **err)
{
	g_autofree char *not = g_strconcat("^", tip, NULL);
	const char *const argv[] = {"rev-list", "--ancestry-path",
				    not,	"--end-of-options",
				    branch,	NULL};
	GString *out = g_string_new(NULL), *e = g_string_new(NULL);
	char *id = NULL;
	char *last;

	if (gitrun(NULL, argv, NULL, 0, out, e, err) == 0) {
		g_strchomp(out->str);
		last = strrchr(out->str, '\n');
		last = last ? last + 1 : out->str;
		if (*last)
			id = g_strdup(last);
	}
	g_string_free(out, TRUE);
	g_string_free(e, TRUE);
	return id;
}

/* does @id have more than one parent? */
static gboolean
is_merge(const char *id)
{
	const char *const argv[] = {"rev-list", "--parents", "-n",
				    "1",	id,	     NULL};
	g_autofree char *line = NULL;

	if (git(argv, &line, NULL) != 0 || !line)
		return FALSE;
	return strchr(line, ' ') != strrchr(line, ' ');
}

/* not in the branch, for the reason @why (taken) */
static void
not_there(struct ty_pr *p, char *why)
{
	p->how = TY_PR_NOT;
	g_free(p->why);
	p->why = why;
}

/* the tip in the branch: merged, or taken by fast-forward */
static gboolean
in_branch(struct ty_pr *p, const char *branch, const char *myemail,
	  gboolean auto_only, GError **err)
{
	g_autofree char *author = NULL;

	p->merge = merge_id(p->tip, branch, err);
	if (err && *err)
		return FALSE;
	if (!p->merge || !is_merge(p->merge)) {
		g_clear_pointer(&p->merge, g_free);
		p->how = TY_PR_FORWARD;
		return TRUE;
	}
	p->how = TY_PR_MERGED;
	if (auto_only) {
		const char *const argv[] = {"show", "-s", "--format=%ae",
					    p->merge, NULL};

		/* b4 ty -a: the user's own merge, not one pulled in */
		if (git(argv, &author, err) != 0 || !author)
			return FALSE;
		if (strcmp(author, myemail)) {
			g_autofree char *who =
			    lore_term_safe(author, MIN(strlen(author), 200));

			g_clear_pointer(&p->merge, g_free);
			not_there(p, g_strdup_printf("merged by %s, not by you",
						     who));
		}
	}
	return TRUE;
}

/* the tip not in the branch: its commits among the user's? */
static gboolean
picked(struct ty_pr *p, const char *branch, const struct ty_branch *mine,
       GError **err)
{
	g_autofree char *range = g_strdup_printf("%s..%s", branch, p->tip);
	const char *const argv[] = {"rev-list",	   "--count",
				    "--no-merges", "--end-of-options",
				    range,	   NULL};
	g_autofree char *count = NULL;
	GPtrArray *ids;
	guint64 n = 0;

	not_there(p, g_strdup_printf("not merged in %s", branch));
	if (!mine || git(argv, &count, NULL) != 0 || !count ||
	    !g_ascii_string_to_unsigned(count, 10, 0, G_MAXUINT, &n, NULL) ||
	    n == 0)
		return TRUE;
	if (n > TYPR_MAX_PICKED)
		return TRUE;
	if (!(p->range = ty_range_load(range, err)))
		return FALSE;
	p->picked.patches = ty_branch_patches(p->range);
	p->picked.npatches = ty_branch_count(p->range);
	ids = ty_match(mine, &p->picked, &p->found);
	p->ids = (char **)g_ptr_array_free(ids, FALSE);
	if (p->found) {
		p->how = TY_PR_PICKED;
		g_clear_pointer(&p->why, g_free);
	}
	return TRUE;
}

gboolean
typr_locate(const struct ty_series *s, const char *branch, const char *myemail,
	    gboolean auto_only, const struct ty_branch *mine, struct ty_pr *p,
	    GError **err)
{
	size_t n = strlen(s->name) - strlen(".pr");
	g_autofree char *peeled = NULL;
	int rc;

	memset(p, 0, sizeof(*p));
	p->tip = g_strndup(s->name, n);
	/* the picked commits are said as the pull's */
	p->picked.subject = s->subject;
	p->picked.name = s->name;
	if ((n != 40 && n != 64) || strspn(p->tip, "0123456789abcdef") != n) {
		g_autofree char *safe = lore_term_safe(s->name, -1);

		not_there(p, g_strdup_printf("'%s' is not named TIP.pr after "
					     "a commit id",
					     safe));
		return TRUE;
	}
	peeled = g_strconcat(p->tip, "^{commit}", NULL);
	{
		const char *const argv[] = {"rev-parse", "--verify", "-q",
					    peeled, NULL};

		if (git(argv, NULL, NULL) != 0) {
			not_there(p, g_strdup_printf("its tip %.12s is not in "
						     "this repository",
						     p->tip));
			return TRUE;
		}
	}
	{
		const char *const argv[] = {"merge-base", "--is-ancestor",
					    p->tip, branch, NULL};

		rc = git(argv, NULL, err);
	}
	if (rc == 0)
		return in_branch(p, branch, myemail, auto_only, err);
	if (rc != 1) {
		if (err && !*err)
			g_set_error(err, LORE_ERROR, LORE_EUSAGE,
				    "git merge-base cannot say whether %s "
				    "holds %.12s",
				    branch, p->tip);
		return FALSE;
	}
	return picked(p, branch, mine, err);
}

char *
typr_summary(const struct ty_setup *t, const struct ty_pr *p)
{
	switch (p->how) {
	case TY_PR_MERGED:
		return lore_mask_fill(t->mergemask, p->merge);
	case TY_PR_FORWARD:
		return lore_mask_fill(t->cidmask, p->tip);
	case TY_PR_PICKED:
		return tymail_summary(t, &p->picked, p->ids);
	default:
		return g_strdup("");
	}
}

void
typr_clear(struct ty_pr *p)
{
	g_free(p->tip);
	g_free(p->merge);
	g_free(p->why);
	g_free(p->picked.patches);
	g_free(p->ids);
	ty_branch_free(p->range);
	memset(p, 0, sizeof(*p));
}
