/*
 * bodyparts.h - a patch mail's text cut into the parts b4 rebuilds: the
 * commit message, its trailer block, the basement (what follows "---", or
 * the diff itself) and the "-- " signature, and put back together with
 * other trailers, so that new trailers land where git expects them. The
 * trailers stage's (followup.h); the tests for a diff and a diffstat are
 * mail/body.h's.
 *
 * Ownership: struct body_parts owns its strings and trailers;
 * body_parts_clear() frees them. body_rebuild() returns a new string.
 */
#ifndef LORE_BODYPARTS_H
#define LORE_BODYPARTS_H

#include <glib.h>

#include "trailers/trailer.h"

struct body_parts {
	char *message;	     /* the text above the trailers */
	GPtrArray *trailers; /* the trailer block of the last paragraph */
	char *basement;	     /* after "---" (or from "diff "), "" if none */
	char *signature;     /* after the last "-- " line, "" if none */
	gboolean glued;	     /* the trailer block shared its paragraph with
			      * lines of the message, no blank line between */
	char *sigtail;	     /* a "-- " line inside the last paragraph above
			      * the patch and the lines after it, which git
			      * keeps in the message: written after the
			      * message's own trailers; NULL if none */
	gboolean sig_block;  /* git reads that paragraph as a trailer block:
			      * new trailers follow the tail directly */
};

void body_split(const char *body, struct body_parts *out);
void body_parts_clear(struct body_parts *bp);

/*
 * Put a body back together with @trailers in place of the old block. With
 * a sigtail, the trailers of @trailers that are the body's own (the same
 * pointers as in bp->trailers) come before it and the others after it.
 */
char *body_rebuild(const struct body_parts *bp, GPtrArray *trailers);

#endif
