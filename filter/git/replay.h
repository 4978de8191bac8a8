/*
 * replay.h - the commits `git am` made on a small tree (smalltree.h) made
 * again on the base's full tree by one `git fast-import`: the same blobs,
 * authors, committers, encodings and messages, only the trees and the
 * first parent differ; each commit made is checked byte for byte against
 * am's, and the last is named by a ref of the worktree's own
 * (refs/worktree/), which goes with the worktree.
 *
 * Ownership: the returned tip is the caller's (g_free).
 */
#ifndef LORE_REPLAY_H
#define LORE_REPLAY_H

#include <glib.h>

/*
 * The commits @start..@tip (a line of commits am made in the worktree
 * @wt, @start the small tree's commit) made again on @base; *@new_tip is
 * set to the last. SMALLTREE_FULL (smalltree.h) when a commit holds what
 * fast-import cannot make again (a signature, another header) or a commit
 * made does not match am's: the caller applies on the whole tree; else a
 * lore_status with @err set.
 */
int replay_run(const char *wt, const char *base, const char *start,
	       const char *tip, char **new_tip, GError **err);

#endif
