/*
 * appendlog.h - the journal an --append (append.h) keeps in its dotlock
 * while it writes, and the repair the next run makes from it. A run killed
 * in its write (SIGKILL, a crash) leaves the journal in the stale lock;
 * the run that takes the lock over proves, block by block, which bytes
 * after the old end are the killed run's own: its whole entries stay, a
 * half-written one at the end is cut off, and one that another program's
 * mail follows (a writer that takes no dotlock, only fcntl locks) is
 * blanked out in place, so that the mail after it stays whole and a
 * message of its own. Bytes not proved the killed run's are never changed.
 *
 * Ownership: the strings returned are the caller's (g_free); the lock is
 * borrowed.
 */
#ifndef LORE_APPENDLOG_H
#define LORE_APPENDLOG_H

#include <glib.h>

#include "write/lock.h"

/*
 * The journal of writing @buf at offset @old of the mailbox, its entries
 * ending at the offsets in @ends (gsize), for lock_note().
 */
char *appendlog_text(gsize old, GArray *ends, const GString *buf);

/*
 * Repair what the run whose stale lock @l took over (its journal in
 * l->stale, if any) left half-written, with one note on stderr saying
 * what was done. A lore_status; LORE_EIO and @err when the mailbox could
 * not be changed.
 */
int appendlog_repair(struct lock *l, GError **err);

#endif
