/*
 * source.h - where a thread comes from. Every source answers one question,
 * "add the messages you have of the thread of MSGID to this thread", with a
 * lore_status and, on failure, an error. Sources know nothing of series or
 * trailers; gather.h decides which one to ask next, and the stages after it
 * never know which one spoke.
 *
 * Ownership: a struct source owns its private state; source_free() frees
 * it. Messages are handed to the thread, which owns them.
 */
#ifndef LORE_SOURCE_H
#define LORE_SOURCE_H

#include <glib.h>

#include "thread/thread.h"

/*
 * Why a fetch failed, when that matters to the choice of the next source
 * (gather.h); other failures are in LORE_ERROR with a lore_status code.
 * UNAVAILABLE: nothing to ask here (not set up, not compiled in), returned
 * as LORE_EUSAGE; BUSY: the source stayed unreadable for its whole retry
 * time, returned as LORE_ETEMP.
 */
#define SOURCE_ERROR (source_error_quark())
GQuark source_error_quark(void);

enum source_error {
	SOURCE_ERROR_UNAVAILABLE,
	SOURCE_ERROR_BUSY,
	SOURCE_ERROR_FAILED,
};

/* Mail from @from (an address) sent between @since and @until (seconds
 * since the epoch, both included): --rethread's question. */
struct source_query {
	const char *from;
	gint64 since, until;
};

struct source {
	const char *name; /* "mbox", "lore", "notmuch": for the summary */
	/*
	 * Add what the source has for @msgid (NULL: everything it holds) to
	 * @t. @t may already hold a copy of @msgid (piped by a mail client):
	 * a source that does not know @msgid may look for the thread through
	 * the ids that copy replies to. Returns a lore_status (util.h); on
	 * failure sets @err.
	 */
	int (*fetch)(struct source *src, const char *msgid, struct thread *t,
		     GError **err);
	/*
	 * Add the messages matching @query (public-inbox's search syntax) to
	 * @t; LORE_ENOTFOUND when none does. NULL for a source that cannot
	 * search. Asked through gather_search() only.
	 */
	int (*search)(struct source *src, const char *query, struct thread *t,
		      GError **err);
	/*
	 * Add the mail sent from one address within a time window
	 * (struct source_query) to @t, at least: a source may add more,
	 * the caller sorts them. LORE_ENOTFOUND when none is there. NULL
	 * for a source that cannot. Asked through gather_find() only.
	 */
	int (*find)(struct source *src, const struct source_query *q,
		    struct thread *t, GError **err);
	void (*free)(struct source *src);
	char *label; /* what to call it in messages ("thread.mbox") */
	/* what it gives depends on the messages @t holds (a -m mailbox, its
	 * index walking from their ids): gather.c asks it again when another
	 * source has added to the thread */
	gboolean reask;
	guint added; /* messages it contributed, for the summary */
	/* the most memory the thread may take (thread.h's cost, each message
	 * counted with its overhead): a source stops adding past it and fails
	 * (source_over_budget()); 0: no bound. gather.h sets it. */
	guint64 max_cost;
	void *priv;
};

/* lore-am.max-size's default: 512 MiB. */
#define SOURCE_MAX_COST_DEFAULT ((guint64)512 << 20)

/* @n bytes for people, in plain ASCII: "512 MiB", "1.5 MiB", "999 bytes". */
char *source_size_text(guint64 n);

/*
 * The end of every "too big" error: "the thread would take more than 8 MiB
 * of memory (N messages so far, each counted with 512 bytes of overhead;
 * see lore-am.max-size)" (g_free).
 */
char *source_over_text(guint64 max, guint n);

/*
 * Set @err (LORE_ERROR, LORE_EUSAGE) for a thread that passed @src's
 * max_cost while it read @what (a mailbox, notmuch) after @n messages.
 * Returns LORE_EUSAGE.
 */
int source_over_budget(struct source *src, const char *what, guint n,
		       GError **err);

/* An mbox file, a maildir, or "-" (an mbox on stdin); one that does not
 * exist is an empty one, with a note. Its find() reads the whole folder
 * (bounded by max_cost) and keeps the mail that fits the query. */
struct source *source_mbox_new(const char *path);

/*
 * Mails already read (GBytes, each one message: --stdin-pipe-sep's pieces
 * of standard input), as a source: a fetch adds them all, as a mailbox
 * without an index does, bounded by max_cost. Takes a reference to
 * @mails.
 */
struct source *source_mails_new(GPtrArray *mails, const char *label);

/* Does @m fit @q: sent from q->from (any case) within its window? */
gboolean source_query_fits(const struct source_query *q,
			   const struct message *m);

/* @src->fetch(); with -d (say.h's lore_dbg()), one line on what it gave. */
int source_fetch(struct source *src, const char *msgid, struct thread *t,
		 GError **err);
void source_free(struct source *src);

#endif
