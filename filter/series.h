/*
 * series.h - finding the patch series in a thread: each message classified
 * by its subject and body (patch, cover letter, reply), grouped by revision,
 * placed at its i/N slot; the cover letter found; partial re-rolls completed
 * from the previous revision; review trailers from replies attached to the
 * patch (or cover letter) they descend from.
 *
 * Ownership: a struct series_set borrows the thread (which must outlive it)
 * and owns every spatch and series; series_set_free() frees them. A
 * struct series returned by series_get() belongs to the set.
 */
#ifndef LORE_SERIES_H
#define LORE_SERIES_H

#include <glib.h>

#include "subject.h"
#include "thread.h"

struct spatch {
	struct message *msg; /* borrowed from the thread */
	struct subject subj;
	int revision, counter, expected;
	gboolean revision_inferred, counters_inferred;
	gboolean reply, has_diff, has_diffstat;
	GPtrArray *own;       /* replies: the trailers they send (owned) */
	GPtrArray *followups; /* trailers sent to this message (borrowed) */
	char *patchid;        /* git patch-id --stable, computed on demand */
	gboolean patchid_done;
};

struct series_entry {
	struct spatch *p; /* NULL when the slot is missing */
	int revision;     /* the revision it stands in */
	int reroll_from;  /* revision it was carried over from, or 0 */
};

struct series {
	int revision;
	int expected;
	GArray *slots; /* struct series_entry; [0] is the cover letter */
	gboolean complete, partial_reroll, prepared;
	char *base_commit; /* from the cover letter, or NULL */
	/* trailers carried from earlier revisions: pairs of a borrowed
	 * struct series_entry * and a referenced GPtrArray of trailers */
	GPtrArray *carried;
};

struct series_set {
	struct thread *thread;
	GPtrArray *all;      /* struct spatch *, owned */
	GHashTable *by_msg;  /* struct message * -> struct spatch * */
	GHashTable *revs;    /* GINT revision -> struct series * */
	GHashTable *covers;  /* GINT revision -> struct spatch * */
	GPtrArray *replies;  /* struct spatch * with trailers, borrowed */
	GPtrArray *warnings; /* char *, for the summary */
	GPtrArray *mismatches; /* struct trailer * refused (borrowed) */
	gboolean sloppy;
};

/* Classify every message of @t. @sloppy accepts trailers whose address
 * does not match their sender. */
struct series_set *series_analyse(struct thread *t, gboolean sloppy);

/*
 * The same classification without reading the replies' trailers: enough
 * for series_revisions() and series_complete(), cheaper when only those
 * are asked (series_followups() then finds nothing to add).
 */
struct series_set *series_outline(struct thread *t);

/* Is revision @revision (0: the latest) there with all its patches? */
gboolean series_complete(struct series_set *s, int revision);
void series_set_free(struct series_set *s);

/* Revisions found, ascending (GArray of int; g_array_unref). */
GArray *series_revisions(struct series_set *s);

/* Revision @revision (0: the latest), ready to write; NULL when absent. */
struct series *series_get(struct series_set *s, int revision);

/* The cover letter entry, or NULL. */
struct spatch *series_cover(struct series *ser);

/* Missing patch numbers, ascending (GArray of int). */
GArray *series_missing(struct series *ser);

/*
 * The trailers to add to patch @e: follow-ups sent to it, those carried
 * over from an identical patch of an earlier revision, then those sent to
 * the cover letter. Borrowed pointers, possibly repeated (callers dedup).
 */
GPtrArray *series_followups(struct series_set *s, struct series *ser,
			    const struct series_entry *e);

/*
 * Parse a --cherry-pick SPEC ("1-3,5,7-", or "_" for the patch whose id is
 * @msgid) into a set of patch numbers (GINT keys). NULL and @err on error.
 */
GHashTable *series_cherrypick(struct series *ser, const char *spec,
			      const char *msgid, GError **err);

#endif
