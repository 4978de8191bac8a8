/*
 * thread-int.h - what thread.c (the message set and its graph) and
 * threadcopy.c (the copies of one Message-ID it keeps) share.
 */
#ifndef LORE_THREAD_INT_H
#define LORE_THREAD_INT_H

#include "thread/copyrank.h"
#include "thread/thread.h"

/* @m's rank, made on first use and kept in @t->ranks. */
const struct copyrank *thread_rank(struct thread *t, struct message *m);

/* < 0 when @a is the copy to keep: a local source's before the archive's
 * (thread_merge()), then copyrank.h's rule. */
int thread_better(struct thread *t, struct message *a, struct message *b);

/* Keep @m beside the thread's copy of its id, in rank order; past
 * THREAD_MAX_COPIES the worst goes (put aside if it was ever the thread's
 * copy: an analysis may point to it). */
void thread_keep_copy(struct thread *t, struct message *m);

/* Has the thread @m's bytes already, as @old or one of its copies? */
gboolean thread_same_bytes(struct thread *t, struct message *m,
			   struct message *old);

/* Free @m, a copy no analysis points to, and what the tables say of it. */
void thread_forget(struct thread *t, struct message *m);

/* Drop the other copies of @msgid, as copies past THREAD_MAX_COPIES
 * go (thread_keep_copy()). */
void thread_drop_copies(struct thread *t, const char *msgid);

/* Free the other copies of @msgid. */
void thread_forget_copies(struct thread *t, const char *msgid);

#endif
