/*
 * gather.h - the one place that decides which source to ask next, and the
 * series stage's first run. Local copies first (-m files, then the notmuch
 * database), the archive for what they lack; merged by Message-ID with the
 * first, local, copy kept; a -m mailbox asked before the thread grew is
 * asked again for what the new messages join. A message piped in by a mail
 * client joins the thread but never stands in for a source: until a source has
 * supplied the target, the next one is asked; when none does and the
 * archive failed, it is the thread only if it is a whole series by itself
 * (a patch that answers nothing), with a note. "What they lack" is the series
 * stage's answer (series_outline() + series_complete()), so the thread is
 * outlined once per state it reaches, and the outline of the final thread
 * is handed on to the later stages instead of being made again.
 *
 * Ownership: struct gather owns the struct source objects handed to it
 * (source_free() on each in gather_free()), its notes and its list of
 * sources asked. gather_run() returns a new thread and its outline, both
 * the caller's (series_set_free() before thread_free()).
 */
#ifndef LORE_GATHER_H
#define LORE_GATHER_H

#include <glib.h>

#include "series/series.h"
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
	int use_version;	/* the revision that must be complete; 0:
				   the latest */
	gboolean no_parent;	/* as thread_prune() */
	gboolean parent;	/* --parent: a "Re:" target holding a patch
				   is no series of its own */
	gboolean whole_thread;	/* --thread: no series tells when the
				   thread is complete, so every source
				   is asked, and nothing is outlined */
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
 * Gather the thread of @msgid from the sources; @piped (taken; may be
 * NULL) is the message a mail client piped in. With @msgid NULL, the local
 * sources are read whole and nothing else is asked. On LORE_OK, *@out is
 * the thread cut to @msgid's reply tree (--no-parent as set) and, unless
 * whole_thread is set, *@outline its series (series_analyse()). LORE_OK also
 * when a source that did answer left the target out: the caller checks
 * thread_get(). Else the failing source's status, with @err set (and
 * LORE_EUSAGE with @err set when no source could be asked at all).
 */
int gather_run(struct gather *g, const char *msgid, struct message *piped,
	       struct thread **out, struct series_set **outline, GError **err);

/*
 * Add the reply tree of @msgid, as the archive has it, to @t (--use-newer:
 * a newer revision in another thread). A lore_status, with @err set.
 */
int gather_more(struct gather *g, const char *msgid, struct thread *t,
		GError **err);

/* "Sources: notmuch 25 messages, stdin 1 message" for @t (g_free). */
char *gather_summary(struct thread *t);

#endif
