/*
 * refetch-int.h - what refetch.c (b4 mbox -r: an mbox file) and
 * refetchmd.c (a maildir, each message file replaced on its own) share.
 *
 * Ownership: struct refetch owns its entries and their strings.
 */
#ifndef LORE_REFETCH_INT_H
#define LORE_REFETCH_INT_H

#include "thread/thread.h"

#include <glib.h>
#include <sys/stat.h>

/* the largest mbox refetched, and the most messages in it */
#define REFETCH_MAX_BYTES ((gsize)1 << 30)
#define REFETCH_MAX_MESSAGES 100000

/* one message of the mailbox, as it lies there (unquoted) */
struct entry {
	char *raw;
	size_t len;
	char *msgid;	/* NULL: none, kept as it is */
	char *path;	/* a maildir's message file; NULL in an mbox */
	struct stat st; /* that file as it was read */
};

struct refetch {
	GArray *entries; /* struct entry */
	gboolean too_many;
};

/* Is @path a maildir (a folder with cur/, new/ and tmp/)? */
gboolean refetch_is_maildir(const char *path);

/* The messages of the maildir @path (cur/ then new/, each by name) into
 * @r, r->too_many set past REFETCH_MAX_MESSAGES; a lore_status, reported. */
int refetch_read_maildir(const char *path, struct refetch *r);

/*
 * Each message of @r that @all holds, written in place of its file (in
 * the maildir @dir's tmp/ first, then renamed over it, so its name and
 * flags stay) unless it is the same already or the file changed since it
 * was read; *@got counts those refetched, *@same those already so. A
 * lore_status, reported: on a failure the messages replaced before it
 * stay, each whole.
 */
int refetch_replace_maildir(const char *dir, struct refetch *r,
			    struct thread *all, guint *got, guint *same);

/* the warning for a message no source knows (@e->msgid set) */
void refetch_unknown(const struct entry *e);

#endif
