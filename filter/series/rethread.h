/*
 * rethread.h - --rethread: a series whose patches were sent as unrelated
 * mails (no In-Reply-To, no References: git send-email --no-thread, a
 * mail system that dropped the headers) stitched into one thread. The
 * rule, as b4's: the mails of one series come from one address within
 * a short time, and their subjects carry the same bracketed prefix, the
 * same revision and the same total, [PATCH v2 n/N]. Which mail to ask
 * the sources for is the caller's (gather_find()); here only the rule,
 * on messages already read.
 *
 * Ownership: the messages and the thread are borrowed; rethread_pick()
 * returns a new array of new strings (g_ptr_array_unref).
 */
#ifndef LORE_RETHREAD_H
#define LORE_RETHREAD_H

#include <glib.h>

#include "thread/thread.h"

/* How far from the target's Date another mail of its series may be. */
#define RETHREAD_WINDOW (60 * 60)

/*
 * The largest series stitched: a flood of [PATCH 1/5000] from one
 * address is not a series to gather message by message.
 */
#define RETHREAD_MAX_PATCHES 200

/*
 * Can @m be stitched to the rest of its series: a patch or cover letter
 * (not a reply) with i/N in its subject, N from 2 to
 * RETHREAD_MAX_PATCHES, a sender and a date? Else FALSE and *@why (a
 * new string, for a note).
 */
gboolean rethread_wants(const struct message *m, char **why);

/*
 * The Message-IDs of the mails among @cands (struct message *, borrowed)
 * that make one series with @target, @target's included: the same sender
 * (any case), within RETHREAD_WINDOW of @target's date, not a reply, the
 * same prefix words, revision and total, a counter from 0 to N, and no
 * In-Reply-To nor References (a mail threaded elsewhere is left there).
 * One per counter, the nearest in time to @target; the cover letter (0/N)
 * first, then by counter. At most N + 1 ids.
 */
GPtrArray *rethread_pick(const struct message *target, GPtrArray *cands);

/*
 * The Message-IDs of @given (NULL-terminated) that @t holds, in the
 * series' order: by the i of their subject's i/N (0/N first); a mail
 * without i/N after those, in the order given. A new array of new
 * strings; rethread_stitch() takes it.
 */
GPtrArray *rethread_order(struct thread *t, char **given);

/*
 * Make @ids (rethread_pick()'s) one thread in @t: each of them that @t
 * holds and that has no parent in @t is made a reply to @ids[0], the
 * series' first mail (In-Reply-To set in memory only; the mail written
 * is unchanged). Returns how many were linked.
 */
guint rethread_stitch(struct thread *t, GPtrArray *ids);

#endif
