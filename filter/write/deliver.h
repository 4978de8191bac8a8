/*
 * deliver.h - whole messages into mailboxes, byte for byte as they came:
 * mboxrd entries (the only change is the From_ line in front, one more '>'
 * on ">*From " lines and a blank line after; append.h appends them to an
 * mbox), and maildir delivery (tmp/ then cur/). Both skip messages whose
 * Message-ID the mailbox already holds, so running the same command twice
 * adds nothing the second time.
 *
 * Ownership: every function borrows its arguments; messages stay the
 * thread's. Strings returned are the caller's (g_free).
 */
#ifndef LORE_DELIVER_H
#define LORE_DELIVER_H

#include <glib.h>

#include "mail/message.h"

/*
 * The From_ line for @m, without its newline: "From ADDR Www Mmm dd
 * hh:mm:ss yyyy", the sender's address and the Date in UTC (asctime form,
 * as mail readers sort by it). An address that could not stand in the
 * line (empty, spaces, controls) becomes MAILER-DAEMON; an unknown date
 * the epoch.
 */
char *deliver_from_line(const struct message *m);

/*
 * What to put between the @n bytes of an mbox ending in @d and an entry
 * appended to them: "", "\n" or "\n\n", so that the entry's From_ line
 * follows a blank line (a static string).
 */
const char *deliver_separator(const guint8 *d, size_t n);

/* Append @m to @out as one mboxrd entry. */
void deliver_mboxrd_add(GString *out, const struct message *m);

/*
 * Deliver the messages of @msgs that the maildir @dir does not hold yet
 * into its cur/ folder, flagged seen with @seen. @dir is created when
 * missing (and made a maildir when it is an empty folder). Each message is
 * written to tmp/ and then linked into cur/, so a reader never sees part
 * of one; on an error, the messages delivered before it stay. Returns a
 * lore_status; @added counts the messages delivered.
 */
int deliver_maildir(const char *dir, GPtrArray *msgs, gboolean seen,
		    guint *added, GError **err);

#endif
