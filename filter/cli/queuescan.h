/*
 * queuescan.h - `lore-am queue`'s applied scan: the series the queue
 * holds, whole and not yet applied, looked up among HEAD's recent
 * history by their patches' patch-ids (git/applied.h, one pass for all),
 * each found whole marked applied with its commits, and its notmuch tags
 * moved (queuetag.h).
 */
#ifndef LORE_QUEUESCAN_H
#define LORE_QUEUESCAN_H

#include "core/config.h"

/*
 * In a git work tree, unless lore-am.queue-scan = false in @cfg: the
 * scan. FALSE with @err when the queue could not be read or written: the
 * caller says it, as a warning, unless its own read of the queue fails
 * too and says so (a damaged file gets one line, not two). Git's failure
 * and a mark not set are warnings said here.
 */
gboolean queuescan_run(struct config *cfg, GError **err);

#endif
