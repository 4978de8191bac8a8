/*
 * cherrypick.h - the --cherry-pick SPEC syntax, as b4's -P: patch numbers
 * and ranges ("1-3,5,7-", an open end meaning the last patch; "<4",
 * the patches before 4; "-1", the last, "-2" the one before), "_" for
 * the patch the user gave, or a shell pattern with '*' matched against
 * the patches' titles ("*glob*").
 *
 * Ownership: the set returned is the caller's (g_hash_table_destroy).
 */
#ifndef LORE_CHERRYPICK_H
#define LORE_CHERRYPICK_H

#include <glib.h>

#include "series/series.h"

/*
 * Parse @spec for @ser into a set of patch numbers (GINT keys); "_" picks
 * the patch whose id is @msgid, a pattern the patches whose title matches.
 * NULL and @err (LORE_EUSAGE for a bad spec, LORE_ENOTFOUND when @msgid is
 * not a patch of @ser or no title matches) on error.
 */
GHashTable *cherrypick_parse(struct series *ser, const char *spec,
			     const char *msgid, GError **err);

#endif
