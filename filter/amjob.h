/*
 * amjob.h - the am job: from a thread to the am-ready output. Picks the
 * revision, refuses an incomplete series unless told otherwise, builds each
 * am-ready message, prints the summary on stderr and writes the result.
 *
 * Ownership: struct amjob_opts is the caller's; amjob_run() borrows it and
 * the thread for the duration of the call.
 */
#ifndef LORE_AMJOB_H
#define LORE_AMJOB_H

#include <glib.h>

#include "am.h"
#include "thread.h"

struct amjob_opts {
	struct am_opts am;
	int use_version;          /* 0: the latest */
	char *cherry_pick;        /* or NULL */
	gboolean sloppy;
	gboolean allow_incomplete;
	gboolean mboxrd;
	gboolean allow_unicode_control; /* patches with bidi controls too */
	char *outdir;             /* NULL: the mbox goes to stdout */
	char *link_mask;          /* for the summary's Link line */
	const char *target;       /* the message asked about, or NULL */
};

/* Returns a lore_status (util.h); errors are reported on stderr. */
int amjob_run(struct thread *t, const struct amjob_opts *o);

#endif
