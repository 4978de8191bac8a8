/*
 * series.h - finding the patch series in a thread: each message classified
 * by its subject and body (patch, cover letter, reply), grouped by revision,
 * placed at its i/N slot; the cover letter found; partial re-rolls completed
 * from the previous revision. The trailers replies carry are the next
 * stage's (followup.h), which also answers the one question about them
 * classifying asks (series_sends_fn); --cherry-pick's syntax is
 * cherrypick.h's.
 *
 * Ownership: a struct series_set borrows the thread (which must outlive it)
 * and owns every spatch and series; series_set_free() frees them. A
 * struct series returned by series_get() belongs to the set.
 */
#ifndef LORE_SERIES_H
#define LORE_SERIES_H

#include <glib.h>

#include "mail/subject.h"
#include "thread/thread.h"

struct spatch {
	struct message *msg; /* borrowed from the thread */
	struct subject subj;
	int revision, counter, expected;
	gboolean revision_inferred, counters_inferred;
	gboolean reply, has_diff, has_diffstat;
};

struct series_entry {
	struct spatch *p; /* NULL when the slot is missing */
	int revision;	  /* the revision it stands in */
	int reroll_from;  /* revision it was carried over from, or 0 */
};

struct series {
	int revision;
	int expected;
	GArray *slots; /* struct series_entry; [0] is the cover letter */
	gboolean complete, partial_reroll, prepared;
	char *base_commit; /* from the cover letter, or NULL */
};

/*
 * Does @m (its text @body) send trailers? b4 takes a mail without "Re:"
 * that answers another and holds no diff for a follow-up when it does.
 * Reading trailers is the trailers stage's: the caller hands its test in
 * (trailer_reply_sends(), trailers/trailer.h); NULL takes no such mail for
 * a follow-up.
 */
typedef gboolean (*series_sends_fn)(const struct message *m, const char *body);

struct series_set {
	struct thread *thread;
	series_sends_fn sends; /* as given to series_analyse() */
	GPtrArray *all;	       /* struct spatch *, owned */
	GHashTable *by_msg;    /* struct message * -> struct spatch * */
	GHashTable *revs;      /* GINT revision -> struct series * */
	GHashTable *covers;    /* GINT revision -> struct spatch * */
	GPtrArray *warnings;   /* char *, for the summary */
	char *reply_target;    /* series_analyse_for()'s @target, or NULL */
	gboolean no_reroll;    /* --no-partial-reroll: a partial re-roll is
				  not completed from the revision before
				  (set before the first series_get()) */
};

/*
 * Classify every message of @t and place the patches. Revisions are told
 * apart by what the subjects say; an unversioned resend of a single patch
 * (same sender, later) is the revision after the highest one found, never
 * one that exists.
 */
struct series_set *series_analyse(struct thread *t, series_sends_fn sends);

/*
 * The same, with @target (a Message-ID, or NULL) the mail the user pointed
 * at: when its subject says "Re:" and it holds a diff, it is a patch (a
 * series of one, of the revision its brackets name), not a follow-up.
 * Kept in the set's reply_target, so that the set can be made again.
 */
struct series_set *series_analyse_for(struct thread *t, const char *target,
				      series_sends_fn sends);

/* The spatch of message @m (borrowed), or NULL. */
struct spatch *series_spatch_of(struct series_set *s, const struct message *m);

/*
 * For g_ptr_array_sort() of struct spatch *: by send date, an unknown date
 * (0) counting as the oldest; the sort is stable, so equal dates keep the
 * thread's order.
 */
int series_by_date(gconstpointer a, gconstpointer b);

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
 * Is @msgid a patch of its own inside another series' thread: a patch
 * without "i/N" that answers a patch or cover letter, and whose title no
 * patch with an "i/N", nor one of another revision, has (that would make
 * it a revision of that patch)? A fix proposed in review, for example; it
 * is the series the user means.
 */
gboolean series_inner_patch(struct series_set *s, const char *msgid);

/*
 * Is @msgid a "Re:" mail that holds a diff (a follow-up to series_analyse(),
 * a patch to series_analyse_for() with it as the target)? git am applies
 * such a mail when it is given alone.
 */
gboolean series_reply_patch(struct series_set *s, const char *msgid);

#endif
