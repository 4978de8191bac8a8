/*
 * applypair.h - two trial runs (apply.h, APPLY_NONE, or rdtrial.h:
 * --range-diff's two revisions) at the same time: the first in a child
 * process, the second in this one. Each is a separate `git am` with its
 * own HEAD and index, so nothing is shared but the object store, which
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

/* One trial run: apply_run(), or rdtrial.h's git am; @data is the
 * caller's. A lore_status, or a negative status of the caller's (-255 to
 * -1), with @err set when it failed. */
typedef int (*applypair_fn)(struct apply_job *j, gpointer data, GError **err);

/* @fn on @a (with @da) and on @b (with @db): their status in *@ra and
 * *@rb, with @ea and @eb set on failure. @fn NULL: apply_run(). */
void applypair_run(applypair_fn fn, struct apply_job *a, gpointer da, int *ra,
		   GError **ea, struct apply_job *b, gpointer db, int *rb,
		   GError **eb);

#endif
