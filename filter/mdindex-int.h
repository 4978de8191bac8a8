/*
 * mdindex-int.h - what the two halves of the index share: the open
 * database (mdindex.c) and its update from the mailbox (mdupdate.c).
 *
 * Schema (PRAGMA user_version = MDINDEX_VERSION):
 *   msg(id, dir, name, uniq, off, len, msgid, sender, refs, date, subject,
 *       big)  one row per message: dir 0 cur/, 1 new/ (maildir; name the
 *             file name, uniq its part before ':') or 2 (mbox: off and len
 *             the raw bytes); msgid NULL when the plain scan drops it;
 *             refs In-Reply-To then References, one id a line; sender the
 *             From address (thread_prune() scopes ids without '@' by it);
 *             big 1 when over LORE_MAX_MESSAGE
 *   ref(ref, msg)   who names an id as an ancestor
 *   state(k, v)     what the folder looked like when last indexed
 */
#ifndef LORE_MDINDEX_INT_H
#define LORE_MDINDEX_INT_H

#include <glib.h>
#include <sqlite3.h>

#include "thread.h"

#define MDINDEX_VERSION 1
#define MDINDEX_DIR_CUR 0
#define MDINDEX_DIR_NEW 1
#define MDINDEX_DIR_MBOX 2

struct mdindex {
	sqlite3 *db;
	const char *path; /* the mailbox as given (borrowed) */
	gboolean maildir;
};

#define MDINDEX_ERROR (mdindex_error_quark())
GQuark mdindex_error_quark(void);

/* An SQLite failure as a GError whose code is the SQLite result code. */
gboolean mdindex_fail(struct mdindex *x, int rc, GError **err);

/* Run @sql (no rows wanted); FALSE and @err on failure. */
gboolean mdindex_exec(struct mdindex *x, const char *sql, GError **err);

/* Prepare @sql, or NULL and @err. */
sqlite3_stmt *mdindex_prepare(struct mdindex *x, const char *sql, GError **err);

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
 * Returns a new array owning its rows, or NULL and @err.
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
