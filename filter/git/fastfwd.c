/*
 * fastfwd.c - the fast-forward of --apply by plumbing (see fastfwd.h).
 * `git merge --ff-only` first refreshes the whole index, that is stats
 * each of the work tree's files (80 000 in a kernel tree) a second time
 * after the precheck. `read-tree -m -u` does not, but it still walks both
 * trees and every index entry (0.3 s of CPU in a kernel tree); the diff
 * of the two trees given to `git apply --index` touches only the changed
 * entries and files, and whatever it refuses is left to read-tree. The
 * commits and the tree are the same; the reflog says what git merge
 * says.
 */
#include "git/fastfwd.h"
#include "core/gitrun.h"
#include "core/util.h"
#include "git/treecheck.h"

#include <stdio.h>
#include <string.h>

/*
 * The difference of @from's tree and @to's applied to the index and the
 * work tree by `git apply --index` (whole blob ids, binary included): it
 * reads and writes the index once and looks at the changed files only
 * (the diff made in @scratch, a worktree of the same repository, or in
 * the current folder when NULL).
 * 0 when applied; else nothing was changed (git apply checks every file
 * before it writes one).
 */
static int
apply_diff(const char *from, const char *to, const char *scratch)
{
	const char *const diff[] = {"diff-tree",
				    "-r",
				    "-p",
				    "--binary",
				    "--full-index",
				    "--no-renames",
				    "--no-textconv",
				    from,
				    to,
				    NULL};
	const char *const apply[] = {"apply", "--index", "--whitespace=nowarn",
				     NULL};
	g_autofree char *top = treecheck_toplevel();
	GString *patch = g_string_new(NULL), *e = g_string_new(NULL);
	int st = -1;

	/* git diff-tree reads the index of where it runs (for the
	 * attributes): the temporary worktree's is small, the user's 8 MB */
	if (top && gitrun(scratch, diff, NULL, 0, patch, e, NULL) == 0)
		/* from the top: in a subfolder git apply leaves out the
		 * paths outside it */
		st = !patch->len ? 0
				 : gitrun(top, apply, patch->str, patch->len,
					  NULL, e, NULL);
	g_string_free(patch, TRUE);
	g_string_free(e, TRUE);
	return st;
}

/* the work tree and index from @from's tree to @to's: by the diff, else
 * (a file in the way, a sparse checkout, anything git apply refuses) by
 * `read-tree -m -u`, whose checks and words are git merge's */
static int
move_tree(const char *from, const char *to, const char *scratch, GString *e)
{
	const char *const rt[] = {"read-tree", "-m", "-u", from, to, NULL};

	if (apply_diff(from, to, scratch) == 0)
		return 0;
	return gitrun(NULL, rt, NULL, 0, NULL, e, NULL);
}

/* HEAD (the branch it names) to @tip if it is still @onto, and
 * ORIG_HEAD to @onto, in one transaction with git merge's reflog line
 * (GIT_REFLOG_ACTION, or "merge @tip_arg", then @what was done) */
static int
move_refs(const char *onto, const char *tip, const char *tip_arg,
	  const char *what, GString *e)
{
	const char *action = g_getenv("GIT_REFLOG_ACTION");
	g_autofree char *msg =
	    action ? g_strdup_printf("%s: %s", action, what)
		   : g_strdup_printf("merge %s: %s", tip_arg, what);
	g_autofree char *in = g_strdup_printf("update HEAD %s %s\n"
					      "option no-deref\n"
					      "update ORIG_HEAD %s\n",
					      tip, onto, onto);
	const char *const ur[] = {"update-ref", "-m", msg, "--stdin", NULL};

	return gitrun(NULL, ur, in, strlen(in), NULL, e, NULL);
}

/* the move refused, git's reason (@e) said in @err */
static int
refused(const GString *e, GError **err)
{
	g_autofree char *why = gitrun_reason(e);

	g_set_error(err, LORE_ERROR, LORE_ENOTFOUND,
		    "cannot move the current branch to the applied series: %s",
		    why);
	return LORE_ENOTFOUND;
}

int
fastfwd_move(const char *onto, const char *to, const char *tip,
	     const char *what, const char *scratch, GError **err)
{
	const char *const hook[] = {
	    "hook", "run", "--ignore-missing", "post-merge", "--", "0", NULL};
	GString *e = g_string_new(NULL);
	int rc = LORE_OK, st;

	if ((st = move_tree(onto, to, scratch, e)) != 0) {
		rc = refused(e, err);
		goto out;
	}
	if ((st = move_refs(onto, to, tip, what, e)) != 0) {
		rc = refused(e, err);
		/* the branch moved meanwhile: the tree goes back */
		g_string_truncate(e, 0);
		move_tree(to, onto, scratch, e);
		goto out;
	}
	/* as git merge: the hook's verdict changes nothing; its words go
	 * to stderr */
	g_string_truncate(e, 0);
	gitrun(NULL, hook, NULL, 0, e, e, NULL);
	fputs(e->str, stderr);
out:
	g_string_free(e, TRUE);
	return rc;
}

int
fastfwd_run(const char *onto, const char *tip, const char *scratch,
	    GError **err)
{
	return fastfwd_move(onto, tip, tip, "Fast-forward", scratch, err);
}
