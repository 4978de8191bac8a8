/*
 * thread.h - the set of messages a source supplied: deduplicated by
 * Message-ID, indexed, and cut down to the target's reply tree.
 *
 * Ownership: the thread owns its messages; thread_free() frees them all.
 * Pointers returned by the lookups are borrowed from the thread.
 */
#ifndef LORE_THREAD_H
#define LORE_THREAD_H

#include <glib.h>

#include "mail/message.h"

struct thread {
	GPtrArray *msgs;    /* struct message *, in the order received */
	GHashTable *by_id;  /* msgid -> struct message * */
	GHashTable *copies; /* msgid (owned) -> GPtrArray * of the other
			       copies of that id kept, best first (their
			       messages owned; copyrank.h) */
	GHashTable *ranks;  /* struct message * -> struct copyrank *, made
			       when two copies meet */
	GHashTable *merged; /* messages that came in by thread_merge() */
	GHashTable *chosen; /* copies that were once in @msgs */
	GPtrArray *retired; /* messages put aside that an analysis made
			       before may still point to; freed with the
			       thread */
	gboolean replaced;  /* a copy took another's place since the last
			       thread_settle() */
	guint dups;	    /* copies dropped: the same bytes again, the
			       archive's of a local one, past
			       THREAD_MAX_COPIES */
	guint no_id;	    /* messages dropped for lack of a Message-ID */
	guint unparsable;   /* pieces of input that were not mail */
	guint too_big;	    /* messages over LORE_MAX_MESSAGE, skipped */
	gsize cost;	    /* memory the messages added take, estimated: each
			       its size plus THREAD_MSG_COST (a source's
			       bound on memory reads it) */
};

/* The copies of one Message-ID kept (the best in @msgs, the others in
 * @copies): enough to choose from, a bounded cost for a folder that holds
 * the same mail a million times. */
#define THREAD_MAX_COPIES 8

/*
 * What a message costs in memory beyond its bytes: its struct, headers
 * copied out, References, the index. Measured: 200 000 replies of 77 bytes
 * took 573 bytes each at peak (RSS) in a --thread run.
 */
#define THREAD_MSG_COST 512

struct thread *thread_new(void);
void thread_free(struct thread *t);

/*
 * Add a parsed message. The thread takes ownership; a message without an
 * id is freed. Of the copies of one Message-ID (the same mail from two
 * lists, twice in a folder, from two mailboxes) the best by copyrank.h's
 * rule is the thread's, whatever order they come in; the others are kept
 * beside it (thread_alternates()), the worst dropped past
 * THREAD_MAX_COPIES. Returns @m when it is now the thread's copy, else
 * NULL.
 */
struct message *thread_add(struct thread *t, struct message *m,
			   const char *origin);

/*
 * Add the message a mail client piped in, provisionally: sources that run
 * after it can find it in the thread, and a copy of it that a source then
 * supplies replaces it. thread_settle() moves what is still provisional to
 * the end, so the order of the thread never depends on which message was
 * piped.
 */
struct message *thread_add_provisional(struct thread *t, struct message *m,
				       const char *origin);
/* TRUE when that changed the order of the thread, or when a copy took the
 * place of another since the last call: an analysis made before is
 * stale. */
gboolean thread_settle(struct thread *t);

/* Parse raw bytes and add them; NULL when not kept. */
struct message *thread_add_raw(struct thread *t, const char *buf, size_t len,
			       const char *origin);

struct message *thread_get(struct thread *t, const char *msgid);

/*
 * Move every message of @src (the archive's) into @dst, as thread_add()
 * would, but a copy of an id @dst has from a local source never takes its
 * place: the archive completes the local mailboxes, it does not replace
 * their copies (it does replace a piped one). @src is left empty and still
 * the caller's to free. Returns the number of messages @dst took as its
 * own.
 */
guint thread_merge(struct thread *dst, struct thread *src);

/*
 * The copy of their Message-ID the thread would keep were @cands (copies
 * of one id from a local source, parsed in the order the source holds
 * them; not the thread's) added: the index in @cands of the best, or -1
 * when the thread's own copy stays. Nothing is added; for a source that
 * must know which copy's references count before it reads the others
 * (mdwalk.c).
 */
gint thread_choose(struct thread *t, GPtrArray *cands);

/*
 * The other copies of @m's Message-ID that stand level with it until
 * signatures decide (rule 2 of copyrank.h): from the same kind of source
 * (local, or the archive) and with the same List-Id rank, best first. A
 * new array of borrowed messages (g_ptr_array_unref), empty when none.
 */
GPtrArray *thread_alternates(struct thread *t, const struct message *m);

/*
 * Keep only messages connected to @msgid through In-Reply-To/References
 * (also through ids that are referenced but missing). With @no_parent the
 * tree starts at @msgid: its ancestors and their other branches are cut.
 * Returns the number of messages dropped.
 */
guint thread_prune(struct thread *t, const char *msgid, gboolean no_parent);

/*
 * The nearest ancestor of @m present in the thread: In-Reply-To when we
 * have it, else the last References id we have. NULL at a root.
 */
struct message *thread_parent(struct thread *t, const struct message *m);

/* Messages in thread order: parents before replies, siblings by date. */
GPtrArray *thread_ordered(struct thread *t);

#endif
