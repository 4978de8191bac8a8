/*
 * newer.h - -c/--check-newer-revisions: is a later revision of the series
 * in another thread? The sources' search (gather_search(): the archive's
 * today) is asked for mail from the
 * series' author with the series' title since it was sent; a patch or
 * cover letter among the answers with a higher revision is newer. With
 * --use-newer the caller has its thread (its reply tree) join ours
 * (gather_more()), so the series code picks it and the trailers stage
 * carries over trailers given to unchanged patches.
 *
 * Ownership: everything is borrowed for the duration of the call.
 */
#ifndef LORE_NEWER_H
#define LORE_NEWER_H

#include <glib.h>

#include "series/series.h"
#include "source/gather.h"

/*
 * Check through @g's search, and say what was found on stderr; --offline
 * (@offline) asks nothing. With @use, *@newer is set to the id of the
 * newer revision's first message (g_free), for the caller to fetch its
 * thread; else NULL. A failed search is only a warning.
 */
int newer_check(struct series_set *s, struct gather *g, gboolean offline,
		gboolean use, char **newer);

/*
 * The search query for a series:
 * ((s:"TITLE" AND f:"EMAIL") OR nq:"change-id: ID") AND d:YYYYMMDD..
 * (@change_id may be NULL, @date 0 for no date limit).
 */
char *newer_query(const char *title, const char *email, const char *change_id,
		  gint64 date);

/* The value of a "change-id:" line in @body, or NULL (g_free). */
char *newer_change_id(const char *body);

#endif
