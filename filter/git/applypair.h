/*
 * applypair.h - two trial runs (apply.h, APPLY_NONE: --range-diff's two
 * revisions) at the same time: the first in a child process, the second
 * in this one. Each is a separate `git am` in its own temporary worktree
 * on its own small tree, so nothing is shared but the object store, which
 * git writes safely from two processes. One after the other when no child
 * can be made.
 *
 * Ownership: the jobs' inputs stay the caller's; what apply_run() fills
 * in (tip, onto, from) is filled in both jobs as it would be, freed with
 * apply_job_clear().
 */
#ifndef LORE_APPLYPAIR_H
#define LORE_APPLYPAIR_H

#include "git/apply.h"

/* apply_run(@a) and apply_run(@b): their lore_status in *@ra and *@rb,
 * with @ea and @eb set on failure. */
void applypair_run(struct apply_job *a, int *ra, GError **ea,
		   struct apply_job *b, int *rb, GError **eb);

#endif
