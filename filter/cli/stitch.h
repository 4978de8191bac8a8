/*
 * stitch.h - --rethread wired: after gathering, when the target's series
 * is not whole in its thread, the sources are asked for the mail its
 * sender sent around the same time (gather_find()), series/rethread.h's
 * rule picks the mails of the series, their reply trees join the thread
 * (gather_join()) and they are stitched into one thread. b4's own form
 * names the mails: --rethread ID ID...
 *
 * Ownership: everything is borrowed for the duration of the call.
 */
#ifndef LORE_STITCH_H
#define LORE_STITCH_H

#include "cli/cli.h"
#include "series/choice.h"
#include "source/gather.h"
#include "thread/thread.h"

/*
 * b4's form, --rethread ID ID... (or "-": the ids on standard input, one
 * a line): c->args made the Message-IDs of the series' mails, in
 * c->rethread_ids, and c->args left holding the first, the target. Up to
 * RETHREAD_MAX_PATCHES + 1 of them. Nothing is done for one argument or
 * none. A lore_status, reported.
 */
int stitch_ids(struct cli *c);

/*
 * Stitch the series of @target (in @t): with @given (stitch_ids()'s, two
 * or more), those mails, whatever their sender and date; else, when @ch
 * finds the series incomplete, the mails series/rethread.h's rule picks
 * among those the sources find. @t is then cut to the series' thread.
 * Nothing found is a note, a search that failed a warning: the run goes
 * on with what it has. A lore_status.
 */
int stitch_run(struct gather *g, struct choice *ch, struct thread *t,
	       const char *target, char **given);

#endif
