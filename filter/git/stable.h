/*
 * stable.h - --stable BRANCH... (or lore-am.stable-branches): for each
 * stable branch, whether the series applies to it clean, needs `git am
 * -3`, or cannot, the fixed commit (a Fixes: of the series) not being in
 * that branch (`git merge-base --is-ancestor`). Each trial is apply.h's
 * APPLY_NONE run: a temporary worktree with the small index (smalltree.h),
 * so the user's tree, index and branches are never touched. The verdicts
 * go to the gate's summary (gate_branch()).
 *
 * Ownership: everything is borrowed for the duration of the call.
 */
#ifndef LORE_STABLE_H
#define LORE_STABLE_H

#include "core/config.h"
#include "gate/gate.h"

#include <glib.h>

/* At most this many branches are tried in one run. */
#define STABLE_BRANCHES_MAX 16

/*
 * The branches: @given (--stable, each may be a comma-separated list),
 * else lore-am.stable-branches (white space or commas between names).
 * The array of names is the caller's (g_ptr_array_unref); empty when
 * none. A name that git would read as an option is refused (one line,
 * FALSE).
 */
gboolean stable_branches(char **given, struct config *cfg, GPtrArray **out);

/* Try the am-ready @mbox on each of @branches (in the repository of the
 * current folder) and tell @gate. */
void stable_run(struct gate *gate, const GString *mbox,
		const GPtrArray *branches);

#endif
