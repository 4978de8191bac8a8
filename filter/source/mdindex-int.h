/*
 * mdindex-int.h - what the parts of the index share: the file and its
 * database (mdopen.c), the thread read through it (mdindex.c), its update
 * from the mailbox (mdupdate.c) and the walk of a reply tree (mdwalk.c).
 *
 * Schema (PRAGMA application_id = "LrAm", user_version = MDINDEX_VERSION):
 *   msg(id, dir, name, uniq, off, len, msgid, sender, refs, date, subject,
 *       big)  one row per message: dir 0 cur/, 1 new/ (maildir; name the
 *             file name, uniq its part before ':') or 2 (mbox: off and len
 *             the raw bytes); msgid NULL when the plain scan drops it;
 *             refs In-Reply-To then References, one id a line; sender the
 *             From address (thread_prune() scopes ids without '@' by it);
 *             big 1 when over LORE_MAX_MESSAGE
 *   ref(ref, msg)   who names an id as an ancestor
 *   state(k, v)     what the folder looked like when last indexed, and
 *                   how many times the WAL was copied into the file
 *                   ("checkpoints", mdindex_checkpoint())
 */
#ifndef LORE_MDINDEX_INT_H
#define LORE_MDINDEX_INT_H

#include <glib.h>

#include "core/sqlitelib.h" /* SQLite, started by sqlitelib_start() */
#include "thread/thread.h"

#define MDINDEX_VERSION 1
#define MDINDEX_DIR_CUR 0
#define MDINDEX_DIR_NEW 1
#define MDINDEX_DIR_MBOX 2

struct mdindex {
	sqlite3 *db;
	const char *path; /* the mailbox as given (borrowed) */
	gboolean maildir;
	/* the thread's memory bound (thread.h's cost; 0: none), what the
	 * walk and the reading have counted against it so far (the thread's
	 * cost included), and whether they stopped for it */
	guint64 budget, spent;
	guint counted;
	gboolean over;
	/* until when (g_get_monotonic_time()) the run waits for another
	 * process that holds the file */
	gint64 deadline;
	/* the index file opened (0: none), the one a removal may remove */
	guint64 dev, ino;
	/* the pages in the WAL after this run's last commit (0: none) */
	int wal_pages;
};

/*
 * What a row of the walk's answer costs in memory until its message is
 * read: the struct, its strings, its place in the walk's tables.
 */
#define MDINDEX_ROW_COST 256

/*
 * Count a message of @len bytes about to be held, its row too when
 * @row: FALSE (and x->over set) when that passes the budget.
 */
gboolean mdindex_spend(struct mdindex *x, gint64 len, gboolean row);

#define MDINDEX_ERROR (mdindex_error_quark())
GQuark mdindex_error_quark(void);

/*
 * MDINDEX_ERROR's codes are SQLite's result codes, and these: a file that
 * is not an index of this lore-am (its message is said of the index: "is
 * from another version of lore-am"), and an index whose rows disagree with
 * the mail or with each other.
 */
#define MDINDEX_EFOREIGN 1000
#define MDINDEX_EDAMAGED 1001

/* The index file of the mailbox @real (its canonical path) (g_free). */
char *mdindex_file(const char *real);

/*
 * Open @file for @x (created with its schema when new, its folder too),
 * in WAL mode. FALSE and @err when it cannot be, MDINDEX_EFOREIGN when the
 * file is no index of this lore-am. x->db is then the caller's to close.
 * Every lock the connection takes waits for another holder until
 * x->deadline; then SQLITE_BUSY.
 */
gboolean mdindex_open(struct mdindex *x, const char *file, GError **err);

/*
 * After a run's update: a WAL of MDINDEX_WAL_FRAMES pages or more (its
 * commits since the last checkpoint) copied into the file and emptied,
 * and a new WAL begun. The one step of a run that waits for the disk;
 * nothing is said when another run's reading keeps it from happening (a
 * later run does it).
 */
void mdindex_checkpoint(struct mdindex *x);

/*
 * Wait a little for another holder of the index, the @n-th time for one
 * lock (a few milliseconds, more as @n grows): FALSE, at once, when
 * x->deadline has passed. SQLite's busy handler (@x a struct mdindex).
 */
int mdindex_wait(void *x, int n);

/*
 * Remove the index @file and its -wal and -shm, when it is still the file
 * @x opened (x->ino): the bytes freed. One that another run made since
 * is left to it.
 */
guint64 mdindex_remove(const struct mdindex *x, const char *file);
/* Is the file at @file no longer the one @x last opened (removed, or
 * made again by another run)? */
gboolean mdindex_replaced(const struct mdindex *x, const char *file);

/*
 * The cache folder was too full to build @file: remember that about
 * @needs bytes are wanted, so that later runs do not fill it again.
 */
void mdindex_mark_full(const char *file, guint64 needs);

/*
 * May the index @file be built? TRUE unless a run found the folder full
 * and it still has less room than was wanted (*@needs, *@avail bytes).
 */
gboolean mdindex_room(const char *file, guint64 *needs, guint64 *avail);

/* An SQLite failure as a GError whose code is the SQLite result code. */
gboolean mdindex_fail(struct mdindex *x, int rc, GError **err);

/* Run @sql (no rows wanted); FALSE and @err on failure. */
gboolean mdindex_exec(struct mdindex *x, const char *sql, GError **err);

/* Prepare @sql, or NULL and @err. */
sqlite3_stmt *mdindex_prepare(struct mdindex *x, const char *sql, GError **err);

/* The integer the one-row query @sql (with @arg, or NULL) gives; @def
 * without a row or on error. */
gint64 mdindex_query_int(struct mdindex *x, const char *sql, const char *arg,
			 gint64 def);

/* The same, told apart: FALSE and @err on error; *@v unchanged without a
 * row. */
gboolean mdindex_query(struct mdindex *x, const char *sql, const char *arg,
		       gint64 *v, GError **err);

/* The integer in state(@k), @def when absent. */
gint64 mdindex_state(struct mdindex *x, const char *k, gint64 def);
gboolean mdindex_set_state(struct mdindex *x, const char *k, gint64 v,
			   GError **err);

/* One message the walk found: where it lies and what its row says. */
struct mdindex_row {
	gint64 id;
	int dir;
	char *name;	    /* maildir file name, else NULL */
	gint64 off, len;    /* mbox: the raw bytes */
	char *msgid, *refs; /* to check the mail against */
	char *sender;
};

void mdindex_row_free(struct mdindex_row *r);

/* Rows (struct mdindex_row **) in the plain scan's order: cur/ then new/
 * by name, as mbox.c walks a maildir; an mbox by offset. */
int mdindex_row_place(gconstpointer a, gconstpointer b);

/*
 * Parse the mails of @rows, in order, into @msgs (struct message *,
 * owned by @msgs); FALSE when one went away or disagrees with its row (the
 * reading that follows the walk says which, and what to do).
 */
gboolean mdindex_read(struct mdindex *x, GPtrArray *rows, GPtrArray *msgs);

/*
 * The rows of @msgid's connected component (mdwalk.c), the thread @t's
 * messages taking part; *@found says whether a row has @msgid itself.
 * Returns a new array owning its rows, or NULL and @err; NULL without
 * @err when the rows would pass x->budget (x->over).
 */
GPtrArray *mdindex_walk(struct mdindex *x, const char *msgid, struct thread *t,
			gboolean *found, GError **err);

/*
 * Bring the index up to date with the mailbox (mdupdate.c): only what
 * changed is read. Runs its own write transaction when anything did.
 */
gboolean mdindex_update(struct mdindex *x, GError **err);

/* The refs column of @m: In-Reply-To, then References, one id a line. */
void mdindex_refs(GString *out, const struct message *m);

#endif
