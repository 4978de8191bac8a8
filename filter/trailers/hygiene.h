/*
 * hygiene.h - the checks a reviewer's trailer passes before it is added,
 * as b4 (0.16 and later) makes them: a Fixes: without a commit id (a hex
 * id of 6 or more digits) is reported, not added; Link: trailers naming
 * one message on different hosts (lore.kernel.org/r/ID, .../all/ID,
 * patch.msgid.link/ID) are one trailer; an address gmane mangled
 * ("name-XXXXXXXXXXXXXXXXXXXXXX@public.gmane.org") is added but noted,
 * since the real one is not known.
 *
 * Ownership: struct hygiene holds borrowed trailers (they belong to the
 * replies' spatch, series.h) and its own strings; hygiene_free() frees
 * them.
 */
#ifndef LORE_HYGIENE_H
#define LORE_HYGIENE_H

#include <glib.h>

#include "trailers/trailer.h"

struct hygiene {
	GPtrArray *bad_fixes; /* struct trailer * refused (borrowed) */
	GPtrArray *gmane;     /* struct trailer * noted (borrowed) */
};

struct hygiene *hygiene_new(void);
void hygiene_free(struct hygiene *h);

/*
 * May @t, sent in a reply, be added? FALSE for a Fixes: without a commit
 * id, which @h keeps for the report; a gmane-mangled address is kept
 * for the report too, and passes.
 */
gboolean hygiene_accept(struct hygiene *h, const struct trailer *t);

/* TRUE for a Fixes: value that starts with a hex id of 6-40 digits. */
gboolean hygiene_fixes_ok(const char *value);

/* TRUE when @email is an address gmane mangled. */
gboolean hygiene_gmane_addr(const char *email);

/*
 * The Message-ID a Link: trailer's value names on a host that serves
 * messages by id (lore.kernel.org, lkml.kernel.org, patch.msgid.link),
 * or NULL (g_free).
 */
char *hygiene_link_msgid(const char *value);

/* Is a Link: naming the same message as @t (on any such host) in @list? */
gboolean hygiene_link_in(GPtrArray *list, const struct trailer *t);

/* The summary's lines on the trailers refused or noted. */
void hygiene_report(const struct hygiene *h);

#endif
