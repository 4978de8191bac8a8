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
 * scan. Never fails the listing: a failure is one warning line.
 */
void queuescan_run(struct config *cfg);

#endif
