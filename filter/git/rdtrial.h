/*
 * rdtrial.h - --range-diff's two trial runs with as few git processes as
 * the job needs. One small tree of the files either revision touches
 * (smalltree.h) is made once when both revisions have the same base; each
 * revision's `git am` then runs at the same time as the other's
 * (applypair.h) in a git folder of our own making instead of a registered
 * worktree: a HEAD and an index of its own, and a "commondir" file naming
 * the user's repository for everything else (objects, refs, config,
 * hooks; gitrepository-layout(5)), its work tree's ".git" file pointing
 * at it. Nothing is registered in the user's repository, so making and
 * removing one starts no git process, and a killed run leaves only its
 * folder, which a later run's sweep removes (tmpwt.h). Nothing is checked
 * out beforehand: git apply checks out each file a patch touches.
 *
 * The commits are those apply.h's APPLY_NONE makes (the small tree holds
 * more files, which no diff shows): when this way cannot tell, the caller
 * runs apply_run(), whose verdict and words are the ones given.
 *
 * A revision git am refuses on its base is tried again, in a git folder
 * of its own, on the tree of the blobs its patches' index lines name
 * (rdfake.h: b4 diff's way, when no commit here fits it); its job's onto
 * is then NULL, and from that tree's commit.
 *
 * Ownership: the jobs' inputs are the caller's; what is filled in (tip,
 * onto, from) is freed with apply_job_clear().
 */
#ifndef LORE_RDTRIAL_H
#define LORE_RDTRIAL_H

#include "git/apply.h"

/* this way could not try the revision: apply_run() it */
#define RDTRIAL_SLOW (-2)
/* git am failed on the small tree: apply_run() it on the full tree
 * (full_tree), which says git's own reason */
#define RDTRIAL_FULL (-3)
/* it fits no commit here, and its patches' pre-images cannot be had
 * (rdfake.h's RDFAKE_REFUSED): the error names the file and the blob */
#define RDTRIAL_NOBASE (-4)

/*
 * @a and @b (APPLY_NONE jobs; base: a full commit id, or any other name,
 * which this way leaves to apply_run()) applied in the repository whose
 * top folder is @top: each status in *@ra and *@rb, LORE_OK (tip, onto
 * and from set; onto NULL on the pre-images' tree), RDTRIAL_SLOW,
 * RDTRIAL_FULL, RDTRIAL_NOBASE, or another lore_status with the error in
 * @ea or @eb (interrupted).
 */
void rdtrial_run(const char *top, struct apply_job *a, int *ra, GError **ea,
		 struct apply_job *b, int *rb, GError **eb);

#endif
