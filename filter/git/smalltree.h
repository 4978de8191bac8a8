/*
 * smalltree.h - the trial run of --apply and --range-diff on a small tree:
 * in a temporary worktree (tmpwt.h), HEAD becomes a commit whose tree
 * holds only the base's entries the series touches, so that `git am`
 * reads and writes an index of a few entries instead of the whole tree's
 * (in a kernel-sized tree that index is 8 MB, written twice a patch).
 * The commits am makes there are then made again on the base's full tree
 * (replay.h).
 *
 * Ownership: paths arrays and returned strings are the caller's.
 */
#ifndef LORE_SMALLTREE_H
#define LORE_SMALLTREE_H

#include <glib.h>

/* smalltree_prepare() (and replay_run()) cannot do this series on a
 * small tree (see there): the caller does it on the whole tree. */
#define SMALLTREE_FULL (-2)

/*
 * The paths the patches of @mbox touch (both names of a rename), as git
 * itself reads them (`git apply --numstat -z`, and with -R for the old
 * names, run in the worktree @wt's top folder); NULL when git cannot read
 * them or there are none.
 */
GPtrArray *smalltree_paths(const char *wt, const GString *mbox);

/*
 * The first half of smalltree_prepare(): the commit of the base's entries
 * for @paths (and what git needs to apply to them, as there), made with
 * the index of the git folder that @wt's ".git" names, which it leaves
 * filled with that tree; HEAD and the files are left alone. @start as
 * there; the same statuses.
 */
int smalltree_commit(const char *wt, const char *base, const GPtrArray *paths,
		     char **start, GError **err);

/*
 * @info (update-index's "MODE OID\tPATH\0" entries) put into the index
 * of the git folder that @wt's ".git" names, its tree written and a
 * commit of that tree made: its id in @start (g_free). How
 * smalltree_commit() and rdfake.h's base end; a lore_status with @err
 * set.
 */
int smalltree_index_commit(const char *wt, const GString *info, char **start,
			   GError **err);

/*
 * In the worktree @wt (detached at @base, nothing checked out): HEAD made
 * a commit of the base's entries for @paths, with what git needs to apply
 * to them as it would in the full tree (a file or link standing where a
 * leading folder of a path goes, the .gitattributes of the top folder and
 * of each leading folder), and those checked out. @start is set to that
 * commit (g_free). A lore_status with @err set, or SMALLTREE_FULL when a
 * path the series touches is a folder in the base.
 */
int smalltree_prepare(const char *wt, const char *base, const GPtrArray *paths,
		      char **start, GError **err);

#endif
