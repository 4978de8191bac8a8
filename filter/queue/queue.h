/*
 * queue.h - the maintainer's queue: the state of every patch series
 * lore-am has seen, kept in one SQLite file ($XDG_DATA_HOME/lore-am/
 * queue.sqlite, else ~/.local/share/lore-am/queue.sqlite), written by
 * every run that sees a series (the mail filter, the am job, the notmuch
 * hook, --apply), never by a daemon. WAL and a busy timeout: eight mail
 * deliveries at once take turns, one writer at a time.
 *
 * A series is keyed by its change-id when its cover letter (or first
 * patch) has one, else by the Message-ID of its first revision's cover
 * letter (or first patch); a revision sent as a new thread joins the
 * series whose messages it shares, or, without any, the one of the same
 * author and title (as series/newer.c looks for newer revisions).
 *
 * The state of a revision: superseded when a newer one exists; else
 * rejected, thanked or applied when so marked; else reviewed when
 * complete and every patch holds a Reviewed-by, Acked-by or Tested-by
 * (its own, a reply's, or the cover letter's); else complete or new.
 * A series' state is its latest revision's.
 *
 * The mail filter must never lose or delay a mail: a queue file that
 * cannot be opened or is corrupt is said in one line, the run goes on
 * without it, and a corrupt one is set aside (queue.sqlite.corrupt) to
 * be rebuilt from what later runs see.
 *
 * Ownership: struct queue is its opener's (queue_close()); rows and
 * strings returned are the caller's, as each function says.
 */
#ifndef LORE_QUEUE_H
#define LORE_QUEUE_H

#include <glib.h>

#include "core/config.h"
#include "series/series.h"

enum queue_state {
	QUEUE_NEW,
	QUEUE_COMPLETE,
	QUEUE_REVIEWED,
	QUEUE_SUPERSEDED,
	QUEUE_APPLIED,
	QUEUE_THANKED,
	QUEUE_REJECTED,
	QUEUE_N_STATES
};

/* "new", "complete", ...; static. */
const char *queue_state_name(enum queue_state s);
/* FALSE when @name is no state. */
gboolean queue_state_parse(const char *name, enum queue_state *out);

/* What one run saw of the mail it was given (the X-Lore-Am header). */
struct queue_seen {
	gboolean known;		/* the rest is filled */
	enum queue_state state; /* of the mail's own revision */
	int revision;
	char *reviews; /* per patch, "R+A+T" totals joined by ",", e.g.
			  "2,1,0"; g_free */
};

void queue_seen_clear(struct queue_seen *s);

struct queue;

/* The file's path (g_free). */
char *queue_path(void);

/*
 * Open (creating it) the queue file: NULL with @err when it cannot be,
 * a corrupt file set aside first.
 */
struct queue *queue_open(GError **err);
void queue_close(struct queue *q);

/* FALSE when lore-am.queue = false in @cfg: nothing is recorded. */
gboolean queue_enabled(struct config *cfg);

struct followups;

/*
 * Record what @s (the series of a thread) holds: its revisions, their
 * patches present, each patch's patch-id, the reviews per patch, every
 * message's place. @f is the trailers stage run on @s
 * (followup_collect(), borrowed: the caller hands the same to the am
 * job, so it runs once); the counts and patch-ids are its. Only what
 * changed is written: a mail arriving in a known thread writes its own
 * row and its revision's. @target (or NULL) is the mail the run was
 * given: @seen (may be NULL) gets its revision's state. Never fails the
 * run: a failure is said in one line. Does nothing unless
 * queue_enabled(@cfg).
 */
void queue_note(struct config *cfg, struct series_set *s, struct followups *f,
		const char *target, struct queue_seen *seen);

/*
 * Mark the series of @msgid (any message of it the queue knows) as
 * @state: "applied", "thanked" or "rejected" for the revision @msgid
 * belongs to, or "new" to clear those marks. @note (may be NULL) says
 * where it was applied. A lore_status; @err says why not.
 */
int queue_mark(const char *msgid, const char *state, GError **err);
int queue_mark_note(const char *msgid, const char *state, const char *note,
		    GError **err);

/* One revision of a series, as listed. */
struct queue_rev {
	int revision, expected, present;
	enum queue_state state;
	char *root;    /* its cover letter's (or first patch's) Message-ID */
	char *reviews; /* per patch "R/A/T", joined by " " (may be "") */
	gint64 first_seen;
};

/* One series, as listed (queue_series_free). */
struct queue_series {
	gint64 id;
	char *key, *subject, *author;
	enum queue_state state; /* its latest revision's */
	int revision;		/* the latest */
	int expected, present;	/* of the latest */
	int reviewed_patches;	/* patches of the latest with a review */
	int reviews;		/* review trailers on the latest, in all */
	gint64 first_seen, last_seen;
	char *applied_note; /* where it was applied, or NULL */
	char *files;	    /* the latest's files, "\n" joined, or NULL */
	GPtrArray *revs;    /* struct queue_rev *, ascending (owned) */
};

void queue_series_free(struct queue_series *s);

/*
 * The series seen since @since (seconds since the epoch, 0: all), most
 * recent first; b4 ty's thanks ($XDG_DATA_HOME/b4/NAME.am.sent) read in first.
 * A GPtrArray of struct queue_series * (owned), or NULL with @err.
 */
GPtrArray *queue_list(struct queue *q, gint64 since, GError **err);

/* The series @msgid belongs to, or NULL (not known, or @err set). */
struct queue_series *queue_find(struct queue *q, const char *msgid,
				GError **err);

/*
 * Every message of the series @id with its revision's state: @fn called
 * once per message. FALSE with @err on a failure.
 */
typedef void (*queue_msg_fn)(const char *msgid, enum queue_state state,
			     gpointer data);
gboolean queue_messages(struct queue *q, gint64 id, queue_msg_fn fn,
			gpointer data, GError **err);

/*
 * A series the applied scan looks for: its latest revision, whole and not
 * marked applied, thanked or rejected, with every patch's patch-id.
 */
struct queue_pending {
	char *root; /* the revision's first message's Message-ID */
	int revision;
	GPtrArray *ids; /* char *, patch 1..N's patch-id (owned) */
};

void queue_pending_free(struct queue_pending *p);

/*
 * The series to look for, at most @max, the most recently seen first: a
 * GPtrArray of struct queue_pending * (owned), or NULL with @err.
 */
GPtrArray *queue_pending(struct queue *q, guint max, GError **err);

/* What @pend (struct queue_pending *) asks, as a short string (g_free). */
char *queue_pending_digest(GPtrArray *pend);

/*
 * Was the tree @top, its HEAD at @head, scanned last for the series
 * @digest says (queue_pending_digest())? Then a scan finds nothing new.
 * queue_scan_done() records a scan (FALSE with @err).
 */
gboolean queue_scan_seen(struct queue *q, const char *top, const char *head,
			 const char *digest);
gboolean queue_scan_done(struct queue *q, const char *top, const char *head,
			 const char *digest, GError **err);

#endif
