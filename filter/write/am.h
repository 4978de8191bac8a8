/*
 * am.h - one am-ready message: the patch mail rewritten the way b4 writes
 * it (git mailinfo's author, date and subject; "[PATCH vN i/N]" prefix;
 * follow-up trailers merged into the commit message by followup_merge();
 * plain UTF-8 text).
 *
 * Ownership: am_message() returns a new string (g_free) holding the message
 * without any mbox From_ line; the options are the caller's.
 */
#ifndef LORE_AM_H
#define LORE_AM_H

#include <glib.h>

#include "trailers/followup.h"
#include "series/series.h"

/* What was done to one patch, for the summary. */
struct am_note {
	char *subject;	    /* the "[PATCH ...] title" line written */
	GPtrArray *added;   /* "Reviewed-by: ..." strings added (char *) */
	GPtrArray *ignored; /* strings dropped by trailers-ignore-from */
	char *author_name;  /* the author git am records ("" when none) */
	char *author_email;
	char *body; /* the text git am commits: message, trailers, patch */
};

void am_note_clear(struct am_note *n);

/*
 * The am-ready text of @e. With @for_cover the trailers are left alone
 * (b4's .cover file). @note may be NULL.
 */
char *am_message(const struct series_entry *e, GPtrArray *followups,
		 const struct followup_opts *o, gboolean for_cover,
		 struct am_note *note);

/* The "[PATCH RFC vN i/N]" prefix b4 gives the subject of @e. */
char *am_subject_prefix(const struct series_entry *e);

/*
 * Fold a header line as b4 does (Python textwrap at 75 columns, breaking
 * only at spaces, continuation lines indented by one space).
 */
void am_wrap_header(GString *out, const char *name, const char *value);

/* A Date value in RFC 5322's canonical form, as Python's email package
 * rewrites it ("Mon, 01 Jan 2024 12:00:01 +0000"); unparsable dates are
 * kept as written. */
char *am_format_date(const char *date);

/* "Name <addr>", "\"Na,me\" <addr>" or "addr", as b4 prints senders. */
char *am_format_addr(const char *name, const char *email);

#endif
