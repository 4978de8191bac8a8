/*
 * append.h - the whole thread appended to an mbox (--append), under the
 * mailbox's locks (lock.h), skipping the messages it holds already. A
 * message is there whole or not at all: a failed write is taken back, a
 * catchable signal (Ctrl-C, SIGTERM, SIGHUP) waits until the write is done,
 * and what a run killed in its write (SIGKILL) left torn is repaired by
 * the next run before it reads the mailbox (appendlog.h).
 *
 * Ownership: append_mbox() borrows its arguments; messages stay the
 * thread's.
 */
#ifndef LORE_APPEND_H
#define LORE_APPEND_H

#include <glib.h>

/*
 * Append the messages of @msgs (struct message *) that @path does not hold
 * yet, in order, to the mbox @path (created when missing), holding its
 * locks for at most @timeout seconds of waiting. On any error the mailbox
 * is left exactly as it was. Returns a lore_status; @added counts the
 * messages written.
 */
int append_mbox(const char *path, GPtrArray *msgs, guint timeout, guint *added,
		GError **err);

#endif
