/*
 * mergeplumb.h - --apply=merge's merge commit made with plumbing when
 * `git merge --no-ff` would make nothing else: the current branch's HEAD
 * an ancestor of the series' tip (the tree is the tip's), the message
 * taken whole from the file (no editor, no hook that could change it, no
 * setting that adds to it or signs it). Then `git commit-tree` of the
 * tip's tree with HEAD and the tip as parents, the same author, committer
 * and message bytes git merge writes (mergesob.h), and the move of
 * fastfwd.h: one `read-tree -m -u` instead of git merge's refreshes of
 * the whole index, one ref transaction with git merge's reflog line,
 * ORIG_HEAD, the post-merge hook.
 *
 * Ownership: the arguments are borrowed.
 */
#ifndef LORE_MERGEPLUMB_H
#define LORE_MERGEPLUMB_H

#include <glib.h>

/* mergeplumb_run(): nothing was done, git merge is to make this merge */
#define MERGEPLUMB_GIT (-3)

/*
 * The merge of @tip (applied on @onto) into the current branch with the
 * message in @msg (as `git merge --no-ff -F FILE --no-edit @flags @tip`
 * would take it from FILE; @scratch as fastfwd_move() takes it). LORE_OK
 * when made; MERGEPLUMB_GIT when only git merge can make it as git merge
 * would (the repository untouched); else a lore_status, the branch,
 * index and work tree as they were, and @err says why.
 */
int mergeplumb_run(const char *onto, const char *tip, const char *msg,
		   char *const *flags, const char *scratch, GError **err);

#endif
