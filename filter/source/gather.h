/*
 * gather.h - the one place that decides which source to ask next. Local
 * copies first (-m files, then the notmuch database), the archive for what
 * they lack; merged by Message-ID with the first, local, copy kept; a -m
 * mailbox asked before the thread grew is asked again for what the new
 * messages join. A message piped in by a mail client joins the thread but
 * never stands in for a source: until a source has supplied the target,
 * the next one is asked; when none does and the archive failed, it is the
 * thread only if it is a whole series by itself (a patch that answers
 * nothing), with a note. Whether the thread holds enough is the caller's
 * question, not gather's: it hands in a struct gather_need (the series
 * stage, series/choice.h: a complete revision), asked once the target is
 * there and the thread is cut to its reply tree. Also the one way to
 * search the sources (gather_search(), gather_find()) and to add another
 * thread (gather_more(), gather_join()): the later stages never ask a
 * source themselves.
 *
 * Ownership: struct gather owns the struct source objects handed to it
 * (source_free() on each in gather_free()), its notes and its list of
 * sources asked. gather_run() returns a new thread, the caller's.
 */
#ifndef LORE_GATHER_H
#define LORE_GATHER_H

#include <glib.h>

#include "source/source.h"
#include "thread/thread.h"

/* --source: auto picks; the others force one kind (-m files always join). */
enum gather_mode {
	GATHER_AUTO,
	GATHER_NOTMUCH,
	GATHER_LORE,
	GATHER_MBOX,
};

/* "auto", "notmuch", "lore", "mbox" (any case); FALSE when unknown. */
gboolean gather_parse_mode(const char *name, enum gather_mode *out);

/*
 * REQUIRED: always asked, and any failure is an error. FALLBACK: asked only
 * to find or complete the series; an unavailable one
 * (SOURCE_ERROR_UNAVAILABLE) is skipped, and so is a busy one
 * (SOURCE_ERROR_BUSY) when there is an archive to ask instead, with a note.
 */
enum gather_role {
	GATHER_REQUIRED,
	GATHER_FALLBACK,
};

struct gather {
	GPtrArray *local;	/* struct source *, asked in order (owned) */
	GArray *roles;		/* enum gather_role, one per local source */
	struct source *archive; /* or NULL: none built or configured */
	gboolean complete;	/* -c: ask the archive even when complete */
	gboolean no_parent;	/* as thread_prune() */
	guint64 max_cost;	/* lore-am.max-size, handed to each local
				   source added after it is set (0: none) */
	GPtrArray *notes;	/* char *: what could not be completed */
	GPtrArray *asked;	/* labels of the sources that answered
				   (borrowed from them), in order */
};

struct gather *gather_new(void);
void gather_free(struct gather *g);

/* Append a local source, bounded by g->max_cost; @g takes ownership. */
void gather_add_local(struct gather *g, struct source *src,
		      enum gather_role role);
/* Set the archive source; @g takes ownership (NULL clears it). */
void gather_set_archive(struct gather *g, struct source *archive);

/*
 * When the thread is enough: enough() is asked about @t, the thread so far,
 * once @msgid is in it, @t cut to @msgid's reply tree (--no-parent as set);
 * TRUE stops asking the fallbacks and the archive (but -c's). With @alone,
 * @msgid is only the piped message, no source had it and the archive
 * failed: TRUE writes it alone (a whole series by itself), with a note.
 * @t is the same thread at every call and only grows, unless cut.
 */
struct gather_need {
	gboolean (*enough)(struct thread *t, const char *msgid, gboolean alone,
			   void *data);
	void *data;
};

/*
 * Gather the thread of @msgid from the sources; @piped (taken; may be
 * NULL) is the message a mail client piped in. With @msgid NULL, the local
 * sources are read whole and nothing else is asked. @need (borrowed) says
 * when the thread is enough; NULL (--thread): never, every source is
 * asked. On LORE_OK, *@out is the thread cut to @msgid's reply tree
 * (--no-parent as set); LORE_OK also when a source that did answer left
 * the target out: the caller checks thread_get(). Else the failing
 * source's status, with @err set (and LORE_EUSAGE with @err set when no
 * source could be asked at all).
 */
int gather_run(struct gather *g, const char *msgid, struct message *piped,
	       const struct gather_need *need, struct thread **out,
	       GError **err);

/*
 * Ask the sources that can search (the archive's public-inbox search
 * today) for the messages matching @query (public-inbox's search syntax)
 * and add them to @t. LORE_ENOTFOUND when none matches or no source can
 * search; else a lore_status, with @err set on failure.
 */
int gather_search(struct gather *g, const char *query, struct thread *t,
		  GError **err);

/*
 * Ask the sources that can (source.h's find(): the -m mailboxes, notmuch,
 * the archive's search) for the mail @q describes and add it to @t, and
 * maybe more (the caller sorts it). Return as gather_search().
 */
int gather_find(struct gather *g, const struct source_query *q,
		struct thread *t, GError **err);

/*
 * Add the reply tree of @msgid to @t from the sources: each local one,
 * then the archive when none had it. LORE_ENOTFOUND (with @err) when no
 * source has it; a source's failure as its lore_status, with @err.
 */
int gather_join(struct gather *g, const char *msgid, struct thread *t,
		GError **err);

/*
 * Add the reply tree of @msgid, as the archive has it, to @t (--use-newer:
 * a newer revision in another thread). A lore_status, with @err set.
 */
int gather_more(struct gather *g, const char *msgid, struct thread *t,
		GError **err);

/* "Sources: notmuch 25 messages, stdin 1 message" for @t (g_free). */
char *gather_summary(struct thread *t);

#endif
