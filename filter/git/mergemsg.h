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

/* The largest shazam-merge-template read. */
#define MERGEMSG_MAX_TEMPLATE (64 << 10)

/*
 * @cover: the am-ready cover letter, or NULL/empty when the series has
 * none (the first message of @mbox then gives the title and author);
 * @patches: how many patches are applied; @link: the series' Link URL;
 * @tpl: shazam-merge-template's text (mergemsg_template()), or NULL for
 * b4's default. Its variables, as b4's: ${patch_or_series},
 * ${seriestitle}, ${authorname}, ${authoremail}, ${covermessage},
 * ${midurl}.
 */
char *mergemsg_build(const GString *cover, const GString *mbox, guint patches,
		     const char *link, const char *tpl);

/*
 * @tpl filled as Python's string.Template.safe_substitute() fills it:
 * $name and ${name} from @vals (name, value, ..., NULL), $$ a '$', any
 * other '$' left as written (g_free).
 */
char *mergemsg_fill(const char *tpl, const char *const *vals);

/*
 * The template file @path names (b4's shazam-merge-template: a leading ~
 * is the home folder, lines starting with '#' are left out), at most
 * 64 KiB, or NULL and @err.
 */
char *mergemsg_template(const char *path, GError **err);

/* The text of a cover letter's @body that b4 keeps for the merge: no
 * in-body headers, trailers, signature or what follows "---". */
char *mergemsg_cover_text(const char *body);

#endif
