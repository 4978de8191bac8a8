/*
 * applied.h - is a patch already in the tree? Its patch-id (`git
 * patch-id --stable`, which mail/patchid.c computes for a mail) looked up
 * among the commits of HEAD's history, all of them in one `git log -p |
 * git patch-id --stable` pass, never one git run per patch: the
 * prerequisites of a series that were merged meanwhile are not applied
 * again (cli/deps.c).
 *
 * Ownership: @ids is borrowed; each found[i] set is the caller's (g_free).
 */
#ifndef LORE_APPLIED_H
#define LORE_APPLIED_H

#include <glib.h>

/* lore-am.deps-lookback's default: commits of HEAD's history searched */
#define APPLIED_LOOKBACK 5000

/*
 * Which of the @n patch-ids @ids (git patch-id --stable, 40 hex)
 * have a commit among the first @lookback commits of HEAD's history
 * (since @base when not NULL): found[i] = that commit's id
 * (g_free) or NULL. One `git log -p | git patch-id --stable` pass
 * (or git's own equivalent), bounded by core/gitbound; a lore_status
 * with @err.
 */
int applied_find(const char *const *ids, gsize n, const char *base,
		 guint lookback, char **found, GError **err);

#endif
