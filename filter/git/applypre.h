/*
 * applypre.h - what --apply checks before it touches anything: the
 * repository can take a series (apply_precheck(), in apply.h, for the
 * caller that has not read the mail yet), and nothing uncommitted stands
 * where the series goes: no change staged in the index, none in the work
 * tree's copies of the files the series touches. Changes to other files
 * stay as they are, as git merge and git am leave them.
 *
 * Ownership: the arguments are borrowed.
 */
#ifndef LORE_APPLYPRE_H
#define LORE_APPLYPRE_H

#include <glib.h>

/*
 * The current repository's index is HEAD's and the work tree's copies of
 * @paths (relative to the top; NULL: every file) are the index's. A
 * lore_status: LORE_EUSAGE with the one-line reason in @err when not.
 */
int applypre_clean(const GPtrArray *paths, GError **err);

#endif
