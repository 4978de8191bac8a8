/*
 * sources.h - which sources to ask for a thread, in which order, and when
 * one should complete another: local copies first (-m files, then the
 * notmuch database), the archive only when what is local lacks the target
 * or a patch of its series (or when told to complete), merged by
 * Message-ID with the first, local, copy kept. Also the summary of which
 * source supplied how many messages.
 *
 * Ownership: struct sources owns the struct source objects handed to it
 * (source_free() on each in sources_free()); the thread passed to
 * sources_gather() stays the caller's and receives the messages.
 */
#ifndef LORE_SOURCES_H
#define LORE_SOURCES_H

#include <glib.h>

#include "source.h"
#include "thread.h"

/* --source: auto picks; the others force one kind (-m files always join). */
enum sources_mode {
	SOURCES_AUTO,
	SOURCES_NOTMUCH,
	SOURCES_LORE,
	SOURCES_MBOX,
};

/* "auto", "notmuch", "lore", "mbox" (any case); FALSE when unknown. */
gboolean sources_parse_mode(const char *name, enum sources_mode *out);

/*
 * REQUIRED: always asked, and any failure is an error. FALLBACK: asked only
 * to find or complete the series; an unavailable one (NM_ERROR_UNAVAILABLE)
 * is skipped, and so is a busy one (NM_ERROR_BUSY) when there is an archive
 * to ask instead, with a note.
 */
enum sources_role {
	SOURCES_REQUIRED,
	SOURCES_FALLBACK,
};

struct sources {
	GPtrArray *local;	/* struct source *, asked in order (owned) */
	GArray *roles;		/* enum sources_role, one per local source */
	struct source *archive; /* or NULL: none built or configured */
	gboolean complete;	/* -c: ask the archive even when complete */
	int use_version;	/* the revision that must be complete; 0:
				   the latest */
	gboolean no_parent;	/* as thread_prune() */
	gboolean whole_thread;	/* --thread: no series tells when the
				   thread is complete, so every source
				   is asked */
	GPtrArray *notes;	/* char *: what could not be completed */
	GPtrArray *asked;	/* labels of the sources that answered
				   (borrowed from them), in order */
	/* the last completeness check: asked again while no source has
	 * added a message, it has the same answer (it costs a series
	 * analysis of the whole thread) */
	struct thread *checked;
	guint checked_len;
	gboolean checked_ok;
};

struct sources *sources_new(void);
void sources_free(struct sources *s);

/* Append a local source; @s takes ownership. */
void sources_add_local(struct sources *s, struct source *src,
		       enum sources_role role);
/* Set the archive source; @s takes ownership (NULL clears it). */
void sources_set_archive(struct sources *s, struct source *archive);

/*
 * Gather the thread of @msgid into @t (which may already hold the piped
 * message). Returns a lore_status: LORE_OK when every source that had to
 * answer did (the target may still be missing: the caller checks), else
 * the failing source's status with @err set. An archive that cannot be
 * reached while local messages exist is not an error: a note says what
 * could not be completed and the thread is what is local.
 */
int sources_gather(struct sources *s, const char *msgid, struct thread *t,
		   GError **err);

/*
 * Does @t hold @msgid and a complete revision @use_version (0: latest) of
 * its series? Prunes @t to @msgid's reply tree first.
 */
gboolean sources_have_series(struct thread *t, const char *msgid,
			     int use_version, gboolean no_parent);

/* "Sources: notmuch 25, stdin 1" for the messages now in @t (g_free). */
char *sources_summary(struct thread *t);

#endif
