/*
 * dig-int.h - what the parts of lore-am dig share: cmd_dig.c reads
 * the commit and asks the archive, digout.c picks the best match among
 * the revisions found and prints it (or every revision), the people the
 * patch went to (-w), and saves its thread (-m); digfind.c makes the
 * commit's patch-id under each diff algorithm and finds the other
 * revisions by the series' change-id.
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
struct thread;

/* Link: trailers read from a commit, at most */
#define DIG_MAX_LINKS 16
/* threads fetched for the other revisions, at most */
#define DIG_MAX_THREADS 16

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
	GPtrArray *patchids;   /* git patch-id --stable of its patch under
				* each diff algorithm tried, distinct
				* (char *); empty: no diff */
	GPtrArray *patches;    /* each distinct patch made (GString *) */
	guint algs;	       /* diff algorithms tried */
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

/* Ask the archive's search; LORE_ENOTFOUND is no error here, any other
 * is reported. */
int dig_search(struct gather *g, const char *query, struct thread *t);

/*
 * The commit's patch-id under the next diff algorithm b4 dig tries
 * (myers, histogram, patience, minimal: `git show --format=email
 * --diff-algorithm=ALG` and `git patch-id --stable`, each run bounded),
 * one whose patch and id are new, added to d->patchids: TRUE, FALSE
 * when every algorithm is tried.
 */
gboolean dig_next_patchid(struct dig *d);
/* frees one of d->patches */
void dig_patch_free(gpointer p);

/* The change-id b4 prep wrote in @m or up its thread @t (its cover
 * letter), g_free; NULL when none, or one not of b4's form (noted). */
char *dig_change_id(struct thread *t, struct message *m);

/*
 * The threads the archive holds up to the commit's day with a message
 * carrying the line "change-id: @id" (nq:"change-id:ID"), each not in
 * @all yet added to it, *@n counting them, at most DIG_MAX_THREADS. A
 * lore_status, reported.
 */
int dig_by_change_id(struct gather *g, const char *id, const struct dig *d,
		     struct thread *all, guint *n);

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
