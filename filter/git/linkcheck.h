/*
 * linkcheck.h - symbolic links a series adds that point outside the
 * repository: git am applies them without a word (a link to ~/.ssh or
 * /etc, followed later by a build or an editor), so the summary names
 * each patch that adds or changes a link whose target leaves the tree.
 *
 * Ownership: a GPtrArray from linkcheck_scan() owns its entries; free it
 * with g_ptr_array_unref().
 */
#ifndef LORE_LINKCHECK_H
#define LORE_LINKCHECK_H

#include <glib.h>

/* A link that leaves the tree: the patch's subject, the link and where
 * it points (all as the patch has them, not yet terminal-safe). */
struct linkcheck_hit {
	char *subject;
	char *path;
	char *target;
};

/*
 * Whether a link at @path (relative to the repository's top) pointing to
 * @target leaves the tree: an absolute target, or ".." components that
 * climb above the top from the link's folder (git stores the target as
 * given; the kernel resolves it from that folder).
 */
gboolean linkcheck_escapes(const char *path, const char *target);

/* The links of the am-ready @mbox that leave the tree: new files of mode
 * 120000, files changed to that mode, and links whose target changes. */
GPtrArray *linkcheck_scan(const GString *mbox);

/* One warning line on stderr for each of them; how many there were. */
guint linkcheck_report(const GString *mbox);

#endif
