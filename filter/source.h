/*
 * source.h - where a thread comes from. Every source answers one question,
 * "add the messages you have of the thread of MSGID to this thread", so
 * main.c can combine them (local first, the archive to complete) and the
 * rest of the pipeline never knows which one spoke.
 *
 * Ownership: a struct source owns its private state; source_free() frees
 * it. Messages are handed to the thread, which owns them.
 */
#ifndef LORE_SOURCE_H
#define LORE_SOURCE_H

#include <glib.h>

#include "thread.h"

struct source {
	const char *name; /* "mbox", "lore", "notmuch": for the summary */
	/*
	 * Add what the source has for @msgid (NULL: everything it holds) to
	 * @t. Returns a lore_status (util.h); on failure sets @err.
	 */
	int (*fetch)(struct source *src, const char *msgid, struct thread *t,
		     GError **err);
	void (*free)(struct source *src);
	char *label;      /* what to call it in messages ("thread.mbox") */
	guint added;      /* messages it contributed, for the summary */
	void *priv;
};

/* An mbox file, a maildir, or "-" (an mbox on stdin). */
struct source *source_mbox_new(const char *path);

int source_fetch(struct source *src, const char *msgid, struct thread *t,
		 GError **err);
void source_free(struct source *src);

#endif
