/*
 * choice.h - which series the run means, and what gathering still lacks
 * for it. While the sources are asked, the choice answers gather's
 * "enough?" (struct gather_need): a complete revision -v (or the latest),
 * or a "Re:" target that holds a patch, is enough; the outline made for
 * that answer is kept for the final thread when it did not change since.
 * Then, on the thread gathered, it decides what git am should get: a patch
 * of its own inside another series' thread, or a reply that holds a
 * patch, taken alone (unless --parent); with -c, a newer revision sent as
 * another thread found through gather_search() and, with --use-newer,
 * added through gather_more().
 *
 * Ownership: struct choice owns its outline until choice_make() hands it
 * on; the thread and the gathering are borrowed. choice_free() frees it.
 */
#ifndef LORE_CHOICE_H
#define LORE_CHOICE_H

#include <glib.h>

#include "series/series.h"
#include "source/gather.h"
#include "thread/thread.h"

/* What the run asks of the series stage. */
struct choice_opts {
	int use_version;       /* -v: the revision that must be complete;
				  0: the latest */
	gboolean parent;       /* --parent: a target inside a series (a
				  fix in review, a "Re:" with a patch) is
				  no series of its own */
	gboolean no_parent;    /* --no-parent */
	gboolean check_newer;  /* -c (or --use-newer) */
	gboolean use_newer;    /* --use-newer */
	gboolean offline;      /* --offline: nothing to search */
	gboolean no_reroll;    /* --no-partial-reroll */
	series_sends_fn sends; /* the trailers stage's test (series.h) */
};

struct choice {
	struct choice_opts o;
	struct gather_need need;    /* gather's question, answered here */
	struct series_set *outline; /* of the thread as it was when ... */
	struct message **outlined;  /* ... it held these (borrowed) */
	guint outlined_len;	    /* ... this many */
};

struct choice *choice_new(const struct choice_opts *o);
void choice_free(struct choice *c);

/*
 * The outline of @t: the one made while gathering when @t holds the same
 * messages in the same order, else made now. Owned by @c.
 */
struct series_set *choice_outline(struct choice *c, struct thread *t);

/*
 * The series in @t that the run means for @target (may be NULL), with a
 * note for a target taken alone; @t is cut to it then. With -c, @g is
 * searched for a newer revision, and with --use-newer its thread joins
 * @t (@g needs its archive). *@out is the caller's, set also on failure
 * (series_set_free()). A lore_status, reported.
 */
int choice_make(struct choice *c, struct gather *g, struct thread *t,
		const char *target, struct series_set **out);

#endif
