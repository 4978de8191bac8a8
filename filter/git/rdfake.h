/*
 * rdfake.h - --range-diff's base for a revision that fits no commit of
 * the repository: b4 diff's "fake am" (b4's make_fake_am_range()). The
 * blobs its patches' index lines name (preimage.h) are put at their paths
 * in the index of a git folder of the caller's (rdtrial.h), never the
 * user's, and that tree committed; git am then runs on it. A blob the
 * object store lacks is rebuilt from the hunks when they hold the whole
 * file, as -3 does (prep3way.h); each id is checked to name a blob
 * (`git cat-file --batch-check`), one process for them all. At most one
 * blob a file the patches touch.
 *
 * Ownership: @mbox is borrowed; *@start is the caller's (g_free).
 */
#ifndef LORE_RDFAKE_H
#define LORE_RDFAKE_H

#include <glib.h>

/* the patches carry no index line: there is nothing to build from */
#define RDFAKE_NONE (-2)
/* a pre-image cannot be had (missing, not a blob, an index line refused):
 * @err's message names the file and the blob */
#define RDFAKE_REFUSED (-5)

/*
 * The base of the revision @mbox made in the git folder that the work
 * tree @wt's ".git" names (its index empty or absent before): the
 * commit's id in *@start. LORE_OK, RDFAKE_NONE, RDFAKE_REFUSED, or
 * another lore_status when git failed (@err set for those two).
 */
int rdfake_commit(const char *wt, const GString *mbox, char **start,
		  GError **err);

#endif
