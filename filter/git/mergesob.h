/*
 * mergesob.h - the message `git merge --no-ff -F FILE --no-edit` commits,
 * made from FILE's text without git merge: the sign-off --signoff adds,
 * placed by git's own rules (sequencer.c's append_signoff(): after the
 * message's trailer block, or after a blank line when it has none; not
 * added again when it is already the last trailer), then the clean-up of
 * commit.cleanup's "whitespace" mode (git stripspace). mergeplumb.c makes
 * the merge commit with it.
 *
 * Only the plain case is taken: no trailer.* settings, the default
 * comment character, no comment line ('#') and no "Conflicts:" line in
 * the text. Anything else returns NULL, and the caller leaves the
 * message to git merge itself.
 *
 * Ownership: the arguments are borrowed; what is returned is the
 * caller's (g_free).
 */
#ifndef LORE_MERGESOB_H
#define LORE_MERGESOB_H

#include <glib.h>

/*
 * @msg with "Signed-off-by: @ident" (a "Name <email>" line's value)
 * placed as git places it; NULL when @msg is not the plain case above.
 */
char *mergesob_append(const char *msg, const char *ident);

/* @msg cleaned as `git stripspace` (no comment stripping) cleans it:
 * trailing white space cut, blank lines at both ends dropped, runs of
 * blank lines made one, a newline at the end. */
char *mergesob_stripspace(const char *msg);

#endif
