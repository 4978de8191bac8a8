/*
 * queue-int.h - what the queue's files share: the open store and its
 * statements (queuedb.c), the state of a revision from what is stored.
 * Not for use outside queue/.
 */
#ifndef LORE_QUEUE_INT_H
#define LORE_QUEUE_INT_H

#include "core/sqlitelib.h"
#include "queue/queue.h"

struct queue {
	sqlite3 *db;
	char *path;
	sqlite3_stmt
	    *revs;	   /* list.c's revisions of a series, kept for the
			      next series (a list of 10 000 prepares it once) */
	GHashTable *stmts; /* SQL text -> sqlite3_stmt *, queue_stmt()'s */
};

/* QUEUE_ERROR's codes are SQLite's result codes (its errors said). */
#define QUEUE_ERROR (queue_error_quark())
GQuark queue_error_quark(void);

/* FALSE with @err (naming the file) when @rc is not SQLite's success. */
gboolean queue_check(struct queue *q, int rc, GError **err);
/* One statement without results. */
gboolean queue_exec(struct queue *q, const char *sql, GError **err);
/* @sql prepared, NULL with @err. */
sqlite3_stmt *queue_prepare(struct queue *q, const char *sql, GError **err);
/*
 * @sql prepared once for the life of @q and kept (a run that looks up
 * thousands of messages prepares each statement once): returned reset,
 * its bindings cleared; NULL with @err. Borrowed: reset it after use,
 * never finalize it. @sql must be a string that outlives @q.
 */
sqlite3_stmt *queue_stmt(struct queue *q, const char *sql, GError **err);
/* The first column of @sql's first row with @text bound to ?1 (may be
 * NULL: no binding) into *@out, left as it is when there is no row; FALSE
 * with @err when the statement fails: a damaged page of the table it reads
 * is an error (queue_failed() sets the file aside), never "not found". */
gboolean queue_int(struct queue *q, const char *sql, const char *text,
		   gint64 *out, GError **err);

/*
 * After a write to @q failed with @err: @q closed, and a damaged file (a
 * page of a table found corrupt) set aside as queue_open() sets aside one
 * it cannot read, to be rebuilt by the next run; @err prefixed with the
 * file's path and what became of it.
 */
void queue_failed(struct queue *q, GError **err);

/*
 * What @q writes is what a run saw of its mail (queue_store()), which
 * later runs see again: closing @q leaves the commits in the WAL for a
 * later checkpoint, where a close copied them into the file with two
 * fdatasync(2) calls (and made and removed the -wal and -shm files) in
 * every run. A killed process loses nothing (the WAL is written before
 * the commit returns); a power loss may take back the commits since the
 * last checkpoint (synchronous = NORMAL: SQLite's WAL checksums keep the
 * file whole). Marks set by hand (queue_mark()) are synced when made.
 */
void queue_seen_only(struct queue *q);

/* BEGIN IMMEDIATE: one writer at a time, the others wait (busy timeout). */
gboolean queue_begin(struct queue *q, GError **err);
/* COMMIT, or ROLLBACK when @ok is FALSE; FALSE when not committed. */
gboolean queue_end(struct queue *q, gboolean ok, GError **err);

/* A column's text, "" for NULL (borrowed from @st until its next step). */
const char *queue_col(sqlite3_stmt *st, int col);

/*
 * The state of revision @rev of a series whose latest is @latest, marked
 * applied/thanked/rejected at the revisions given (0: none), from its
 * counts: @expected patches, @present of them, @reviewed with a review.
 */
enum queue_state queue_rev_state(int rev, int latest, int applied, int thanked,
				 int rejected, int expected, int present,
				 int reviewed);

/* The patches of a "R/A/T R/A/T ..." list with at least one review,
 * and the reviews in all. */
void queue_count_reviews(const char *reviews, int *patches, int *total);

/* What a run saw of one revision of a series (record.c). */
struct rev_info {
	struct series *ser; /* borrowed from the series set */
	int revision, expected, present;
	struct message *root; /* cover letter, else the first patch */
	GString *reviews;     /* "R/A/T" per patch */
	GString *files;	      /* "\n" joined, each once */
	int reviewed;	      /* patches with a review */
	int kept_present;     /* as stored (store.c): the larger counts of */
	char *kept_reviews;   /* what was and what is seen; g_free */
};

/* What a run saw of a series: its revisions, oldest first. */
struct seen_series {
	GArray *revs; /* struct rev_info */
	char *change_id, *author, *title, *subject;
	int latest;
};

struct followups;

/*
 * @ss (what the run saw of the series set @s, with the trailers stage
 * @f) into the store, in one transaction (store.c); @seen (may be NULL)
 * gets the state of @target's revision. FALSE with @err.
 */
gboolean queue_store(struct queue *q, struct series_set *s, struct followups *f,
		     struct seen_series *ss, const char *target,
		     struct queue_seen *seen, GError **err);

/* b4 ty's thanks: every NAME.am.sent tracking file in $XDG_DATA_HOME/b4 marks
 * its series thanked (b4sent.c). Errors are ignored: b4's files are a
 * hint. */
void queue_b4_sent(struct queue *q);

#endif
