/*
 * copyrank.h - which of two copies of one Message-ID the thread keeps
 * (the same mail from two lists, or twice in a folder), so that the same
 * copies give the same bytes whatever order they come in:
 *   1. the List-Id the lore-am.listid-preference (b4.listid-preference)
 *      globs prefer, as b4 ranks them;
 *   2. (where attestation runs, copypick.h: a copy whose signature holds)
 *   3. the fewest changes a list makes: fewer List-* header fields, then
 *      the shorter Subject (a "[list]" tag), then the shorter text (a
 *      footer);
 *   4. the lowest SHA-256 of the bytes (CRLF read as LF, the blank lines
 *      at the end left out: how a mailbox stores a mail is no change),
 *      never the order they came in.
 *
 * Ownership: struct copyrank is the caller's; the preference is a copy
 * this module keeps for the run.
 */
#ifndef LORE_COPYRANK_H
#define LORE_COPYRANK_H

#include <glib.h>

#include "mail/message.h"

/* b4's default: the archive's feeds first, then linux.dev, kernel.org */
#define COPYRANK_DEFAULT_PREFERENCE                                            \
	"*.feeds.kernel.org,*.linux.dev,*.kernel.org,*"

/*
 * Set the List-Id preference for the run: comma-separated globs (fnmatch,
 * case ignored), earlier ones preferred; "*" stands for every other
 * List-Id and for a copy without one, and always ranks last, as in b4.
 * NULL or "" restores the default.
 */
void copyrank_setup(const char *listid_preference);

struct copyrank {
	guint listid;	   /* the index of the first glob the List-Id matches */
	guint list_fields; /* List-* header fields */
	gsize subject_len, text_len;
	char sha256[65];
};

/* The rank of @m (its text is decoded for its length). */
void copyrank_of(struct message *m, struct copyrank *out);

/* < 0 when @a is the better copy, > 0 when @b is; 0 for the same bytes. */
int copyrank_cmp(const struct copyrank *a, const struct copyrank *b);

#endif
