/*
 * dig-int.h - what the two halves of lore-am dig share: cmd_dig.c reads
 * the commit and asks the archive, digout.c picks the best match among
 * the revisions found and prints it (or every revision), the people the
 * patch went to (-w), and saves its thread (-m).
 *
 * Ownership: struct dig owns its strings and arrays (dig_clear() in
 * cmd_dig.c); the messages it points at belong to the threads the run
 * holds.
 */
#ifndef LORE_DIG_INT_H
#define LORE_DIG_INT_H

#include <glib.h>

struct cli;
struct gather;
struct message;
struct series_entry;
struct series_set;

/* Link: trailers read from a commit, at most */
#define DIG_MAX_LINKS 16

/* How a patch matches the commit, the best first. */
enum dig_how {
	DIG_NONE,
	DIG_SUBJECT, /* the same title (and author): another diff */
	DIG_PATCHID, /* the same git patch-id --stable */
	DIG_LINK,    /* a Link: trailer of the commit names it */
};

/* What the repository says of the commit. */
struct dig {
	char *commit;	       /* full id */
	char *patchid;	       /* git patch-id --stable, or NULL (no diff) */
	char *subject;	       /* its title */
	char *email;	       /* its author's address */
	char *until;	       /* YYYYMMDD: its author date and a day, the
				* last day the searches take */
	gint64 until_t;	       /* the end of that day (UTC), 0: no bound */
	GPtrArray *links;      /* its Link: trailers' URLs (char *) */
	GPtrArray *linked;     /* ... the Message-IDs in them (char *) */
	struct message *found; /* the patch found (the thread's), or NULL */
	gboolean by_patchid;   /* found by its patch-id, not its subject */
	const char *mask;      /* the archive's URL mask (borrowed) */
	const char *linkmask;  /* lore-am.linkmask (b4.linkmask), or NULL */
};

/* The title of a patch mail, as the series stage reads it (g_free). */
char *dig_title_of(const struct message *m);
/* Does @m's patch have the commit's patch-id? */
gboolean dig_same_patch(struct message *m, const struct dig *d);
/* The same title, and the same author when @email is not empty? */
gboolean dig_same_title(const struct message *m, const char *title,
			const char *email);

/* "Try following these Link trailers:" and the links, when there are. */
void dig_try_links(const struct dig *d);

/*
 * The answer, from the revisions in @s: without -a the best match (a
 * Link: trailer's patch, else the newest with the commit's patch-id, else
 * its title), its subject on stderr and its link on stdout; with -a every
 * revision; -w the people on it, -m FILE its thread (asked of @g) saved.
 * The links are d->linkmask's, else the archive's URLs. A lore_status,
 * reported.
 */
int dig_answer(struct series_set *s, const struct dig *d, const struct cli *c,
	       struct gather *g);

#endif
