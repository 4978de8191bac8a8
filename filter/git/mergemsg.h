/*
 * mergemsg.h - the merge commit message of `lore-am --apply=merge`, word
 * for word as `b4 shazam -M` writes it: "Merge patch series "TITLE"", the
 * cover letter's author, its text without trailers, then the Link.
 *
 * Ownership: the returned string is the caller's (g_free); the arguments
 * are borrowed.
 */
#ifndef LORE_MERGEMSG_H
#define LORE_MERGEMSG_H

#include <glib.h>

/*
 * @cover: the am-ready cover letter, or NULL/empty when the series has
 * none (the first message of @mbox then gives the title and author);
 * @patches: how many patches are applied; @link: the series' Link URL.
 */
char *mergemsg_build(const GString *cover, const GString *mbox, guint patches,
		     const char *link);

/* The text of a cover letter's @body that b4 keeps for the merge: no
 * in-body headers, trailers, signature or what follows "---". */
char *mergemsg_cover_text(const char *body);

#endif
