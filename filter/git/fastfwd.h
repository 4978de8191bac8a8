/*
 * fastfwd.h - --apply's last step: the current branch moved to the
 * applied series as `git merge --ff-only` moves it, with plumbing that
 * does not look at every file of the work tree again (the precheck's
 * `git status` has just refreshed the index): `git read-tree -m -u`
 * from the base to the tip (git's own checks: a file the series changes
 * that is dirty, or an untracked file in its way, refuses it), one ref
 * transaction (HEAD with its old value, ORIG_HEAD, merge's reflog words),
 * then the post-merge hook as git merge runs it. --apply=merge's merge
 * commit, made by mergeplumb.c, is brought in the same way.
 *
 * Ownership: the arguments are borrowed.
 */
#ifndef LORE_FASTFWD_H
#define LORE_FASTFWD_H

#include <glib.h>

/*
 * HEAD, which is @onto, moved to @tip (a descendant of it) with the work
 * tree and index. @scratch: a worktree of the same repository whose index
 * is small (the trial's), where the two trees are compared, or NULL. A
 * lore_status; on failure the branch, index and work tree are as they
 * were and @err says why in one line.
 */
int fastfwd_run(const char *onto, const char *tip, const char *scratch,
		GError **err);

/*
 * The same move from @onto to @to (a fast-forward or a merge commit whose
 * first parent is @onto), the reflog line saying git merge's words: "merge
 * @tip: @what" (@tip as git merge was given it).
 */
int fastfwd_move(const char *onto, const char *to, const char *tip,
		 const char *what, const char *scratch, GError **err);

#endif
