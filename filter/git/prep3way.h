/*
 * prep3way.h - -3, --prep-3way: make sure `git am -3` can fall back to a
 * three-way merge. That needs the blob each patch starts from (its
 * "index abc..def" line) in the repository; a missing one is rebuilt
 * from the patch itself when its hunks hold the whole old file (checked
 * against the blob id), and the files that cannot be prepared are named.
 *
 * Ownership: everything is borrowed for the duration of the call.
 */
#ifndef LORE_PREP3WAY_H
#define LORE_PREP3WAY_H

#include <glib.h>

/*
 * Check the pre-image blobs of @mbox against the repository of the
 * current folder and write the ones that can be rebuilt; reports on
 * stderr. Returns how many files could not be prepared.
 */
guint prep3way_run(const GString *mbox);

/*
 * The old side of one file's hunks in @diff (from its "@@" lines on):
 * the whole pre-image when the hunks run contiguously from line 1, else
 * NULL (g_free).
 */
char *prep3way_old_side(const char *diff, size_t len);

/*
 * @text (a file rebuilt by prep3way_old_side()) written into the object
 * store of the repository in @dir (NULL: here) when its blob id starts
 * with @pre: the full id (g_free), else NULL (not that blob, or git could
 * not write it).
 */
char *prep3way_write_blob(const char *dir, const char *text, const char *pre);

#endif
