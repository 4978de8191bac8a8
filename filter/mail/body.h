/*
 * body.h - b4's tests for a diff and a diffstat in a mail's text, which
 * tell a patch from a cover letter or a reply. Cutting a patch mail's text
 * into its parts is trailers/bodyparts.h's.
 *
 * Ownership: the text is borrowed for the call.
 */
#ifndef LORE_BODY_H
#define LORE_BODY_H

#include <glib.h>

/* b4's DIFF_RE: "---"/"+++" pair, "GIT binary patch" or "diff --git a/ b/" */
gboolean body_has_diff(const char *text);
/* b4's DIFFSTAT_RE: "N file(s) changed, N insertion(s)/deletion(s)" */
gboolean body_has_diffstat(const char *text);
/* Both in one pass: each of @diff and @diffstat that is not NULL is set */
void body_scan(const char *text, gboolean *diff, gboolean *diffstat);

#endif
