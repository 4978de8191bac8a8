/*
 * threadout.h - the --thread job: every message of the thread, not only
 * the series, in thread order (parents before replies, siblings by date),
 * exactly as received, written as mboxrd to stdout or to DIR/<slug>.mbx,
 * appended to an mbox, or delivered into a maildir; and the summary on
 * stderr (how many messages, how many were new to the target; main.c
 * reports which source gave how many).
 *
 * Ownership: struct threadout_opts is the caller's; threadout_run()
 * borrows it and the thread for the duration of the call.
 */
#ifndef LORE_THREADOUT_H
#define LORE_THREADOUT_H

#include <glib.h>

#include "thread/thread.h"

struct threadout_opts {
	const char *target;  /* the message asked about */
	gboolean no_parent;  /* the thread was cut at the target */
	const char *outdir;  /* -o: write DIR/<slug>.mbx */
	const char *maildir; /* --maildir DIR */
	const char *append;  /* --append MBOX */
	gboolean seen;	     /* --seen: maildir messages flagged seen */
	guint lock_timeout;  /* seconds to wait for --append's locks */
};

/* Returns a lore_status (util.h); errors are reported on stderr. */
int threadout_run(struct thread *t, const struct threadout_opts *o);

/*
 * The file name stem for the thread of @msgid, as b4 mbox names it: runs
 * of characters other than letters, digits, '_', '@', '.', '+', '%' and
 * '-' become one '_', leading and trailing '_' are dropped; cut to 200
 * bytes (a file name holds 255) without splitting a character.
 */
char *threadout_slug(const char *msgid);

#endif
