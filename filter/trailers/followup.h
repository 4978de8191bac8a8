/*
 * followup.h - the trailers stage, between the series and the writer: the
 * trailers reviewers sent as replies, read from the series' replies (in
 * the order they were sent), checked against their sender, attached to the
 * patch or cover letter each reply answers, carried to an identical patch
 * (same git patch-id) of another revision, merged into a patch's own
 * trailers the way b4's fix_trailers() does (links, Cc, your
 * Signed-off-by, lore-am.trailer-order, trailers-ignore-from), and the
 * ones refused reported. trailer.h reads and compares trailer lines; this
 * module decides which go where.
 *
 * Ownership: struct followups borrows the series set (which must outlive
 * it) and owns its tables and the trailers the replies send;
 * followup_free() frees them. Lists returned by followup_for() are the
 * caller's (g_ptr_array_free), their trailers borrowed from @f. struct
 * followup_opts is the caller's.
 */
#ifndef LORE_FOLLOWUP_H
#define LORE_FOLLOWUP_H

#include <glib.h>

#include "series/series.h"

struct followup_opts {
	gboolean add_trailers;	/* false with -T */
	gboolean add_my_sob;	/* -s */
	gboolean add_link;	/* -l */
	char *link_trailer;	/* "Link: https://patch.msgid.link/%s" */
	gboolean cc_trailers;	/* --cc-trailers */
	char *trailer_order;	/* globs, "," separated, or NULL */
	GPtrArray *ignore_from; /* lower-case addresses (char *) */
	char *user_name;	/* git config user.name, or NULL */
	char *user_email;
};

/* A reply and the trailers it sends (owned by struct followups). */
struct followup_sent {
	struct spatch *reply;
	GPtrArray *trailers;
};

struct followups {
	struct series_set *set;
	GArray *sent;		    /* struct followup_sent, the replies that
				       send trailers, by date */
	GHashTable *to;		    /* struct spatch * -> GPtrArray * of the
				       trailers sent to it (borrowed) */
	GPtrArray *mismatches;	    /* struct trailer * refused (borrowed) */
	GHashTable *patchids;	    /* struct spatch * -> char * (or NULL) */
	GHashTable *files;	    /* struct spatch * -> struct patchid_files
				     * (or NULL), for carrying (carry.c) */
	struct series *carried_for; /* the series @carried was made for */
	GHashTable *carried;	    /* struct spatch * of @carried_for ->
				       GPtrArray * from other revisions */
	struct hygiene *hygiene;    /* trailers refused or noted (hygiene.h) */
	GPtrArray *held; /* bots' reports held back (bots.h), or NULL */
};

/*
 * Read every reply's trailers and attach them. With @sloppy, trailers
 * whose address does not match their sender are accepted too.
 */
struct followups *followup_collect(struct series_set *s, gboolean sloppy);
void followup_free(struct followups *f);

/*
 * The patch-id of @p (git patch-id --stable, 40 hex digits), computed once
 * and kept in @f (which owns it), or NULL when @p holds no diff. (carry.c)
 */
const char *followup_patch_id(struct followups *f, struct spatch *p);

/*
 * The trailers to add to patch @e of @ser: follow-ups sent to it, those
 * carried over from an identical patch of another revision, then those
 * sent to the cover letter. Possibly repeated (followup_merge() dedups).
 * (carry.c)
 */
GPtrArray *followup_for(struct followups *f, struct series *ser,
			const struct series_entry *e);

/*
 * b4's fix_trailers(): @body (a commit message with its trailer block)
 * with @fu merged in as @o says. The trailers added are appended to
 * @added, those dropped by trailers-ignore-from to @ignored ("Name: value"
 * strings, owned by the arrays; either may be NULL). Returns a new string.
 */
char *followup_merge(const struct message *m, const char *body, GPtrArray *fu,
		     const struct followup_opts *o, GPtrArray *added,
		     GPtrArray *ignored);

/* The summary's lines on trailers refused for a sender mismatch. */
void followup_report(struct followups *f);

#endif
