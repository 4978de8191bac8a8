/*
 * mdindex.h - a persistent header index of one local mailbox (a maildir or
 * an mbox file), so that finding a thread in it costs the thread, not the
 * folder. The index is an SQLite file under the cache folder, brought up to
 * date for what changed on every use; the messages of the target's reply
 * tree are then read, and only they.
 *
 * It knows messages and their ids, nothing of series or trailers. What it
 * adds to a thread is what the plain scan (mbox_read_path() of the whole
 * folder, then thread_prune()) would have kept, in the same order.
 *
 * Ownership: everything is the caller's; the index's own state lives only
 * for one call.
 */
#ifndef LORE_MDINDEX_H
#define LORE_MDINDEX_H

#include <glib.h>

#include "thread/thread.h"

struct config;

/* mdindex_gather()'s answer "not done: read the whole folder instead" */
#define MDINDEX_PLAIN (-1)
/* ... and "the thread would pass the memory bound" */
#define MDINDEX_OVER (-2)

/*
 * Add to @t the messages of @path (a maildir or an mbox file) in the
 * connected reply graph of @msgid, the graph also holding what @t already
 * has, each kept with @origin (a static name). Returns LORE_OK (and how
 * many messages @t kept in *@added); MDINDEX_OVER, with nothing added and
 * *@added the messages counted, when they would make @t take more than
 * @max_cost bytes (thread.h's cost; 0: no bound), found before they are
 * read; or MDINDEX_PLAIN when the caller must scan the folder itself: the
 * index is turned off; @path is "-" or compressed; neither the folder nor
 * @t has @msgid; a file of the thread was renamed or removed between the
 * update and the reading; or the index cannot be used (then one NOTE line
 * said why and what to do; an index that is not ours or is damaged was
 * removed, to be built again).
 */
int mdindex_gather(const char *path, const char *msgid, struct thread *t,
		   const char *origin, guint64 max_cost, guint *added);

/*
 * Read lore-am.index and lore-am.index-min-messages from @cfg, once per
 * run before the sources are asked; @off (--no-index) or index = false
 * make every later mdindex_gather() answer MDINDEX_PLAIN.
 */
void mdindex_setup(struct config *cfg, gboolean off);

#endif
